import { randomBytes } from 'node:crypto';
import type { Collection, Database, StoredDocument } from '../database';

export interface TeamRecord extends StoredDocument {
  name: string;
  /** Credits the team may spend in all; null means unlimited (the default for self-hosting). */
  creditAllowance: number | null;
  /** Credits spent so far, kept in step with the ledger by `credit-ledger-store`. */
  creditsUsed: number;
  /** Page tasks the team may run at once. */
  maxConcurrency: number;
  /** Key of the team's webhook signatures (`X-Firecrawl-Signature`); made on first use. */
  webhookSecret?: string;
  createdAt: Date;
}

export const DEFAULT_MAX_CONCURRENCY = 10;

/** Teams: who owns keys, jobs, credits and donated browsers. */
export function createTeamStore(database: Database) {
  const teams: Collection<TeamRecord> = database.collection('teams');

  return {
    async ensureIndexes() {},

    /** Creates the team if it does not exist; an existing team keeps its settings and balance. */
    async ensure({ id, name, now = new Date() }: { id: string; name: string; now?: Date }) {
      return teams.findOneAndUpdate(
        { _id: id },
        {
          $setOnInsert: {
            name,
            creditAllowance: null,
            creditsUsed: 0,
            maxConcurrency: DEFAULT_MAX_CONCURRENCY,
            createdAt: now,
          },
        },
        { upsert: true },
      ) as Promise<TeamRecord>;
    },

    get: (id: string) => teams.findOne({ _id: id }),

    async configure(
      id: string,
      settings: Partial<Pick<TeamRecord, 'name' | 'creditAllowance' | 'maxConcurrency'>>,
    ) {
      return teams.findOneAndUpdate({ _id: id }, { $set: settings });
    },

    /** The team's webhook secret, generated and stored the first time it is asked for. */
    async webhookSecret(id: string): Promise<string | undefined> {
      await teams.updateOne(
        { _id: id, webhookSecret: { $exists: false } },
        { $set: { webhookSecret: randomBytes(32).toString('hex') } },
      );
      return (await teams.findOne({ _id: id }))?.webhookSecret;
    },

    /** Adds to the spent credits; the ledger calls this once per new charge. */
    addCreditsUsed: (id: string, credits: number) =>
      teams.findOneAndUpdate({ _id: id }, { $inc: { creditsUsed: credits } }),
  };
}

export type TeamStore = ReturnType<typeof createTeamStore>;
