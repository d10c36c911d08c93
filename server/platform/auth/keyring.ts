import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeyStore, TeamStore } from '../store';

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

/**
 * How long an answer of the store is reused. Short, so that a revoked key stops working within
 * this time on every instance (docs/security.md#revoked-keys asks for at most 5 s).
 */
export const KEY_CACHE_MS = 2_000;
const KEY_CACHE_ENTRIES = 10_000;
/**
 * A key's last use is written at most this often: a busy key would otherwise cost a store write
 * per request, and a listing that says "used a minute ago" says enough.
 */
export const LAST_USE_WRITE_MS = 60_000;

/**
 * The keyring of a running server: the keys in the store (created with the keys CLI or the
 * admin API), after the configured ones (`fixed`, the default team's API_KEY), which work even
 * while the database is down. Answers are cached by digest for `cacheMs`; unknown keys too, so a
 * client retrying with a wrong key does not cost a database read per request.
 */
export function createStoreKeyring({
  apiKeys,
  teams,
  fixed,
  cacheMs = KEY_CACHE_MS,
  lastUseWriteMs = LAST_USE_WRITE_MS,
  now = Date.now,
}: {
  apiKeys: ApiKeyStore;
  teams: TeamStore;
  fixed: Keyring;
  cacheMs?: number;
  lastUseWriteMs?: number;
  now?: () => number;
}): Keyring {
  const cache = new Map<string, { team: Team | undefined; until: number }>();
  /** When this process last wrote each key's last use, by digest. */
  const lastUseWritten = new Map<string, number>();
  /**
   * Records the use in the background: a request never waits for it, and a store that cannot
   * take the write (down, read-only) costs only the timestamp, never the request.
   */
  const recordUse = (apiKey: string, cacheKey: string) => {
    const at = now();
    const written = lastUseWritten.get(cacheKey);
    if (written !== undefined && at - written < lastUseWriteMs) return;
    if (lastUseWritten.size >= KEY_CACHE_ENTRIES) lastUseWritten.clear();
    lastUseWritten.set(cacheKey, at);
    // Not retried before the minute is out either: a store that is down gets no write per request.
    void apiKeys.recordUse(apiKey, new Date(at)).catch(() => undefined);
  };
  return {
    async findTeam(apiKey) {
      const cacheKey = digest(apiKey).toString('hex');
      const configured = await fixed.findTeam(apiKey);
      if (configured !== undefined) {
        recordUse(apiKey, cacheKey);
        return configured;
      }
      const cached = cache.get(cacheKey);
      if (cached !== undefined && cached.until > Date.now()) {
        if (cached.team !== undefined) recordUse(apiKey, cacheKey);
        return cached.team;
      }
      const teamId = await apiKeys.findTeamId(apiKey);
      const record = teamId === undefined ? undefined : await teams.get(teamId);
      const team = teamId === undefined ? undefined : { id: teamId, name: record?.name ?? teamId };
      if (cache.size >= KEY_CACHE_ENTRIES) cache.clear();
      cache.set(cacheKey, { team, until: Date.now() + cacheMs });
      if (team !== undefined) recordUse(apiKey, cacheKey);
      return team;
    },
  };
}
