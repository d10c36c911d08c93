import type { Collection, Database, StoredDocument } from '../database';

export interface BrowserRegistration extends StoredDocument {
  /** `_id` is the browser id the hub knows it by. */
  teamId: string;
  /** SHA-256 digest of the device token the browser connects with. */
  tokenDigest: string;
  label: string;
  /** Sites the donor allows the team's tasks to use their login for. */
  allowedDomains: string[];
  /** The rest of the donor's terms, as the browser last reported them on connecting. */
  allowJavascript?: boolean;
  maxTabs?: number;
  enabled?: boolean;
  createdAt: Date;
  lastSeenAt?: Date;
  revokedAt?: Date;
}

export type NewBrowserRegistration = Pick<
  BrowserRegistration,
  '_id' | 'teamId' | 'tokenDigest' | 'label' | 'allowedDomains'
>;

/** Donated browsers paired with a team. */
export function createBrowserRegistrationStore(database: Database) {
  const registrations: Collection<BrowserRegistration> = database.collection('browser_registrations');

  return {
    async ensureIndexes() {
      await registrations.createIndex({ name: 'tokenDigest', keys: { tokenDigest: 1 }, unique: true });
      await registrations.createIndex({ name: 'team', keys: { teamId: 1 } });
    },

    async register(registration: NewBrowserRegistration, now = new Date()) {
      const stored: BrowserRegistration = { ...registration, createdAt: now };
      await registrations.insertOne(stored);
      return stored;
    },

    /** The live (not revoked) registration of a device token digest. */
    findByTokenDigest: (tokenDigest: string) =>
      registrations.findOne({ tokenDigest, revokedAt: { $exists: false } }),

    /** The registration of a token digest, revoked or not: a revoked browser is told so. */
    findAnyByTokenDigest: (tokenDigest: string) => registrations.findOne({ tokenDigest }),

    get: (id: string) => registrations.findOne({ _id: id }),

    /** Which of these browsers have been revoked (by any server instance sharing the store). */
    async revokedAmong(ids: readonly string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const revoked = await registrations.find({ _id: { $in: [...ids] }, revokedAt: { $exists: true } });
      return revoked.map((registration) => registration._id);
    },

    async touch(id: string, now = new Date()) {
      await registrations.updateOne({ _id: id }, { $set: { lastSeenAt: now } });
    },

    async setAllowedDomains(id: string, allowedDomains: string[]) {
      return registrations.findOneAndUpdate({ _id: id }, { $set: { allowedDomains } });
    },

    /** Records the terms a browser connected with, so the team sees what its donor allows. */
    async recordTerms(
      id: string,
      terms: Pick<BrowserRegistration, 'allowedDomains' | 'allowJavascript' | 'maxTabs' | 'enabled'>,
      now = new Date(),
    ) {
      await registrations.updateOne({ _id: id }, { $set: { ...terms, lastSeenAt: now } });
    },

    async revoke(id: string, now = new Date()) {
      return (
        (
          await registrations.updateOne(
            { _id: id, revokedAt: { $exists: false } },
            { $set: { revokedAt: now } },
          )
        ).matched === 1
      );
    },

    listForTeam: (teamId: string) => registrations.find({ teamId }, { sort: { createdAt: 1 } }),
  };
}

export type BrowserRegistrationStore = ReturnType<typeof createBrowserRegistrationStore>;
