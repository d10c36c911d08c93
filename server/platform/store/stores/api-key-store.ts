import { createHash, randomUUID } from 'node:crypto';
import { generateApiKey, keyHint } from './api-key-format';
import type { Collection, Database, StoredDocument } from '../database';

export interface ApiKeyRecord extends StoredDocument {
  /** `_id` is the SHA-256 digest of the key: keys themselves are never stored. */
  teamId: string;
  label: string;
  /** Names the key in listings and revocations without revealing it. */
  keyId?: string;
  /** The first characters of the key, so its owner can tell which one a listing means. */
  hint?: string;
  /** `config` for the key that comes from API_KEY (or the generated key file). */
  source?: 'config' | 'created';
  createdAt: Date;
  revokedAt?: Date;
  /** When it last authenticated a request, to within a minute (server/platform/auth/keyring.ts). */
  lastUsedAt?: Date;
}

export const apiKeyDigest = (apiKey: string) => createHash('sha256').update(apiKey).digest('hex');

/** What listings show of a key. */
export type ApiKeyListing = Pick<
  ApiKeyRecord,
  'teamId' | 'label' | 'createdAt' | 'revokedAt' | 'lastUsedAt'
> & {
  keyId: string;
  hint: string;
};

const listing = (record: ApiKeyRecord): ApiKeyListing => ({
  keyId: record.keyId ?? record._id.slice(0, 12),
  hint: record.hint ?? '',
  teamId: record.teamId,
  label: record.label,
  createdAt: record.createdAt,
  ...(record.revokedAt === undefined ? {} : { revokedAt: record.revokedAt }),
  ...(record.lastUsedAt === undefined ? {} : { lastUsedAt: record.lastUsedAt }),
});

/** API keys by digest, each belonging to a team. */
export function createApiKeyStore(database: Database) {
  const keys: Collection<ApiKeyRecord> = database.collection('api_keys');

  const add = async ({
    apiKey,
    teamId,
    label,
    source = 'created',
    now = new Date(),
  }: {
    apiKey: string;
    teamId: string;
    label: string;
    source?: ApiKeyRecord['source'];
    now?: Date;
  }) => {
    await keys.updateOne(
      { _id: apiKeyDigest(apiKey) },
      { $setOnInsert: { teamId, label, keyId: randomUUID(), hint: keyHint(apiKey), source, createdAt: now } },
      { upsert: true },
    );
  };

  return {
    async ensureIndexes() {
      await keys.createIndex({ name: 'team', keys: { teamId: 1 } });
      await keys.createIndex({ name: 'key_id', keys: { keyId: 1 } });
    },

    /** Registers a key for a team; registering the same key again changes nothing. */
    add,

    /** Makes a new random key for the team; the only time the key itself is seen. */
    async create({ teamId, label, now = new Date() }: { teamId: string; label: string; now?: Date }) {
      const apiKey = generateApiKey();
      await add({ apiKey, teamId, label, now });
      const record = await keys.findOne({ _id: apiKeyDigest(apiKey) });
      if (record === undefined) throw new Error('a created key was not stored');
      return { apiKey, key: listing(record) };
    },

    /**
     * The key configured for a team through the environment (API_KEY): registered, and every other
     * configured key of that team revoked, so that changing API_KEY retires the old one.
     */
    async setConfigured({
      apiKey,
      teamId,
      now = new Date(),
    }: {
      apiKey: string;
      teamId: string;
      now?: Date;
    }) {
      const digest = apiKeyDigest(apiKey);
      await add({ apiKey, teamId, label: 'API_KEY', source: 'config', now });
      await keys.updateOne({ _id: digest }, { $unset: { revokedAt: true } });
      await keys.updateMany(
        { teamId, source: 'config', _id: { $ne: digest }, revokedAt: { $exists: false } },
        { $set: { revokedAt: now } },
      );
    },

    /** The team of a key that exists and is not revoked. */
    async findTeamId(apiKey: string): Promise<string | undefined> {
      const record = await keys.findOne({ _id: apiKeyDigest(apiKey), revokedAt: { $exists: false } });
      return record?.teamId;
    },

    /** Notes that a key authenticated a request; a key not stored (none of ours) changes nothing. */
    async recordUse(apiKey: string, at = new Date()) {
      await keys.updateOne({ _id: apiKeyDigest(apiKey) }, { $set: { lastUsedAt: at } });
    },

    async revoke(apiKey: string, now = new Date()) {
      return (
        (
          await keys.updateOne(
            { _id: apiKeyDigest(apiKey), revokedAt: { $exists: false } },
            { $set: { revokedAt: now } },
          )
        ).matched === 1
      );
    },

    /** Revokes by the id listings show; returns the revoked key's listing, or undefined. */
    async revokeById(keyId: string, now = new Date()) {
      const record = await keys.findOneAndUpdate(
        { keyId, revokedAt: { $exists: false } },
        { $set: { revokedAt: now } },
      );
      return record === undefined ? undefined : listing(record);
    },

    listForTeam: (teamId: string) => keys.find({ teamId }, { sort: { createdAt: 1 } }),

    /** Listings of every key, or of one team's, oldest first. */
    async list({ teamId }: { teamId?: string } = {}) {
      const found = await keys.find(teamId === undefined ? {} : { teamId }, { sort: { createdAt: 1 } });
      return found.map(listing);
    },
  };
}

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;
