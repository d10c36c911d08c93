import {
  BrowserProfileState,
  EMPTY_PROFILE_STATE,
  MAX_PROFILE_STATE_CHARS,
  profileStateChars,
  type ProfileCookie,
  type ProfileOriginStorage,
} from '../../../../shared/protocol/browser-profile-state';
import { insertIfAbsent, type Collection, type Database, type StoredDocument } from '../database';

export interface BrowserProfileDocument extends StoredDocument {
  /** `<teamId>/<name>`: names hold no `/`, so one id is one (team, name). */
  teamId: string;
  name: string;
  cookies: ProfileCookie[];
  localStorage: ProfileOriginStorage[];
  /** Bumped by every save: a save names the version it started from and loses to any made since. */
  version: number;
  /** profileStateChars of the state, at most MAX_PROFILE_STATE_CHARS. */
  chars: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A profile as a scrape reads it; a name never saved reads as empty, at version 0. */
export interface StoredBrowserProfile {
  state: BrowserProfileState;
  version: number;
  updatedAt?: Date;
}

export type ProfileWrite = 'saved' | 'conflict' | 'too-large';

const idOf = (teamId: string, name: string) => `${teamId}/${name}`;

/**
 * Named browser profiles (the v2 scrape option `profile`): per team and name, the cookies and
 * localStorage that profile scrapes start from. A profile belongs to its team: every query names
 * the team, so no other team can read or write it. Saves are compare-and-set on `version`, so
 * that concurrent scrapes merge their changes rather than overwrite each other's
 * (server/scrape/capture/browser-profile-use.ts).
 */
export function createBrowserProfileStore(database: Database) {
  const profiles: Collection<BrowserProfileDocument> = database.collection('browser_profiles');

  return {
    async ensureIndexes() {
      await profiles.createIndex({ name: 'team_name', keys: { teamId: 1, name: 1 }, unique: true });
    },

    async load(teamId: string, name: string): Promise<StoredBrowserProfile> {
      const stored = await profiles.findOne({ _id: idOf(teamId, name), teamId });
      if (stored === undefined) return { state: EMPTY_PROFILE_STATE, version: 0 };
      // Stored data is parsed like any other input: a damaged document fails this scrape, loudly.
      const state = BrowserProfileState.parse({ cookies: stored.cookies, localStorage: stored.localStorage });
      return { state, version: stored.version, updatedAt: stored.updatedAt };
    },

    /**
     * Replaces the profile's state if it is still at `expectedVersion` (0: not saved yet);
     * `conflict` when another save came first, `too-large` (and nothing written) over the cap.
     */
    async replace(
      teamId: string,
      name: string,
      state: BrowserProfileState,
      expectedVersion: number,
      now = new Date(),
    ): Promise<ProfileWrite> {
      const chars = profileStateChars(state);
      if (chars > MAX_PROFILE_STATE_CHARS) return 'too-large';
      const _id = idOf(teamId, name);
      if (expectedVersion === 0) {
        const inserted = await insertIfAbsent(profiles, {
          _id,
          teamId,
          name,
          cookies: state.cookies,
          localStorage: state.localStorage,
          version: 1,
          chars,
          createdAt: now,
          updatedAt: now,
        });
        return inserted ? 'saved' : 'conflict';
      }
      const { matched } = await profiles.updateOne(
        { _id, teamId, version: expectedVersion },
        {
          $set: { cookies: state.cookies, localStorage: state.localStorage, chars, updatedAt: now },
          $inc: { version: 1 },
        },
      );
      return matched === 1 ? 'saved' : 'conflict';
    },

    /** The team's profile names, oldest first (for operators and tests; not a Firecrawl route). */
    async names(teamId: string): Promise<string[]> {
      return (await profiles.find({ teamId }, { sort: { createdAt: 1 }, limit: 10_000 })).map(
        (profile) => profile.name,
      );
    },

    async remove(teamId: string, name: string): Promise<boolean> {
      return (await profiles.deleteOne({ _id: idOf(teamId, name), teamId })).deleted === 1;
    },
  };
}

export type BrowserProfileStore = ReturnType<typeof createBrowserProfileStore>;
