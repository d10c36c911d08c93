import { createHash } from 'node:crypto';
import type { Collection, Database, StoredDocument } from '../database';

export interface PairingCode extends StoredDocument {
  /** `_id` is the SHA-256 digest of the code: codes themselves are never stored. */
  teamId: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt?: Date;
}

export const pairingCodeDigest = (code: string) => createHash('sha256').update(code).digest('hex');

/** Why a code did not pair: nobody issued it (or it was already used), or it ran out of time. */
export type PairingCodeRefusal = 'invalid' | 'expired';

/** Expired codes are kept this long, so that a late attempt hears "expired" rather than "invalid". */
export const EXPIRED_CODE_RETENTION_MS = 24 * 60 * 60_000;

/** One-time codes a team hands to a person who pairs a browser with it. */
export function createPairingCodeStore(database: Database) {
  const codes: Collection<PairingCode> = database.collection('pairing_codes');

  return {
    async ensureIndexes() {
      await codes.createIndex({
        name: 'expiry',
        keys: { expiresAt: 1 },
        expireAfterSeconds: EXPIRED_CODE_RETENTION_MS / 1000,
      });
    },

    async issue({
      code,
      teamId,
      ttlMs,
      now = new Date(),
    }: {
      code: string;
      teamId: string;
      ttlMs: number;
      now?: Date;
    }) {
      const stored: PairingCode = {
        _id: pairingCodeDigest(code),
        teamId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + ttlMs),
      };
      await codes.insertOne(stored);
      return stored;
    },

    /**
     * Spends a code: one conditional update, so two browsers presenting the same code cannot both
     * pair. Returns the team it pairs with, or why it does not.
     */
    async spend(
      code: string,
      now = new Date(),
    ): Promise<{ teamId: string } | { refused: PairingCodeRefusal }> {
      const _id = pairingCodeDigest(code);
      const spent = await codes.findOneAndUpdate(
        { _id, usedAt: { $exists: false }, expiresAt: { $gt: now } },
        { $set: { usedAt: now } },
      );
      if (spent !== undefined) return { teamId: spent.teamId };
      const known = await codes.findOne({ _id });
      return { refused: known !== undefined && known.usedAt === undefined ? 'expired' : 'invalid' };
    },

    purgeExpired: async (now = new Date()) =>
      (await codes.deleteMany({ expiresAt: { $lt: new Date(now.getTime() - EXPIRED_CODE_RETENTION_MS) } }))
        .deleted,
  };
}

export type PairingCodeStore = ReturnType<typeof createPairingCodeStore>;
