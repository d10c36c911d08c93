import { createHash, timingSafeEqual } from 'node:crypto';

export interface Team {
  id: string;
  name: string;
}

/** Maps an API key to the team it belongs to. */
export interface Keyring {
  findTeam(apiKey: string): Promise<Team | undefined>;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * A keyring over a fixed list of keys (the default team's key from API_KEY). Only digests are
 * kept, and they are compared in constant time, so neither memory dumps nor timing give a key away.
 */
export function createStaticKeyring(entries: ReadonlyArray<{ apiKey: string; team: Team }>): Keyring {
  const digests = entries.map((entry) => ({ digest: digest(entry.apiKey), team: entry.team }));
  return {
    async findTeam(apiKey) {
      const candidate = digest(apiKey);
      let found: Team | undefined;
      for (const entry of digests) {
        if (timingSafeEqual(entry.digest, candidate)) found = entry.team;
      }
      return found;
    },
  };
}

export const DEFAULT_TEAM: Team = { id: 'default', name: 'Default team' };
