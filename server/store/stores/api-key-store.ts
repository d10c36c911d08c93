import { createHash } from 'node:crypto';
import type { Collection, Database, StoredDocument } from '../database';

export interface ApiKeyRecord extends StoredDocument {
  /** `_id` is the SHA-256 digest of the key: keys themselves are never stored. */
  teamId: string;
  label: string;
  createdAt: Date;
  revokedAt?: Date;
}

export const apiKeyDigest = (apiKey: string) => createHash('sha256').update(apiKey).digest('hex');

/** API keys by digest, each belonging to a team. */
export function createApiKeyStore(database: Database) {
  const keys: Collection<ApiKeyRecord> = database.collection('api_keys');

  return {
    async ensureIndexes() {
      await keys.createIndex({ name: 'team', keys: { teamId: 1 } });
    },

    /** Registers a key for a team; registering the same key again changes nothing. */
    async add({
      apiKey,
      teamId,
      label,
      now = new Date(),
    }: {
      apiKey: string;
      teamId: string;
      label: string;
      now?: Date;
    }) {
      await keys.updateOne(
        { _id: apiKeyDigest(apiKey) },
        { $setOnInsert: { teamId, label, createdAt: now } },
        { upsert: true },
      );
    },

    /** The team of a key that exists and is not revoked. */
    async findTeamId(apiKey: string): Promise<string | undefined> {
      const record = await keys.findOne({ _id: apiKeyDigest(apiKey), revokedAt: { $exists: false } });
      return record?.teamId;
    },

    async revoke(apiKey: string, now = new Date()) {
      return (
        (await keys.updateOne({ _id: apiKeyDigest(apiKey) }, { $set: { revokedAt: now } })).matched === 1
      );
    },

    listForTeam: (teamId: string) => keys.find({ teamId }, { sort: { createdAt: 1 } }),
  };
}

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;
