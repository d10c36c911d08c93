import type { Collection, Database, StoredDocument } from '../database';

export interface BrowserNodeToken extends StoredDocument {
  /** `_id` is the token's public id (`node_…`), which lists and revocations name. */
  /** SHA-256 digest of the secret the node's browsers connect with; the secret itself is never stored. */
  tokenDigest: string;
  /** The team whose tasks the node's browsers serve only; null for the shared pool. */
  teamId: string | null;
  label: string;
  createdAt: Date;
  lastSeenAt?: Date;
  revokedAt?: Date;
}

export type NewBrowserNodeToken = Pick<BrowserNodeToken, '_id' | 'tokenDigest' | 'teamId' | 'label'>;

/**
 * Credentials of browser nodes (`npm run browser-node`): one token serves any number of browsers
 * on any number of machines, for one team or for the shared pool, until an admin revokes it.
 */
export function createBrowserNodeTokenStore(database: Database) {
  const tokens: Collection<BrowserNodeToken> = database.collection('browser_node_tokens');

  return {
    async ensureIndexes() {
      await tokens.createIndex({ name: 'tokenDigest', keys: { tokenDigest: 1 }, unique: true });
    },

    async create(token: NewBrowserNodeToken, now = new Date()) {
      const stored: BrowserNodeToken = { ...token, createdAt: now };
      await tokens.insertOne(stored);
      return stored;
    },

    /** The token with this digest, revoked or not: a revoked node is told so. */
    findByDigest: (tokenDigest: string) => tokens.findOne({ tokenDigest }),

    get: (id: string) => tokens.findOne({ _id: id }),

    list: () => tokens.find({}, { sort: { createdAt: 1 } }),

    /** Which of these tokens have been revoked (through any server instance sharing the store). */
    async revokedAmong(ids: readonly string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const revoked = await tokens.find({ _id: { $in: [...ids] }, revokedAt: { $exists: true } });
      return revoked.map((token) => token._id);
    },

    async touch(id: string, now = new Date()) {
      await tokens.updateOne({ _id: id }, { $set: { lastSeenAt: now } });
    },

    async revoke(id: string, now = new Date()) {
      return (
        (await tokens.updateOne({ _id: id, revokedAt: { $exists: false } }, { $set: { revokedAt: now } }))
          .matched === 1
      );
    },
  };
}

export type BrowserNodeTokenStore = ReturnType<typeof createBrowserNodeTokenStore>;
