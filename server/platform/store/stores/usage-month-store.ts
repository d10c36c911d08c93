import type { Collection, Database, StoredDocument } from '../database';

/** One team's usage in one calendar month (UTC) under one API key. */
export interface UsageMonth extends StoredDocument {
  teamId: string;
  /** `YYYY-MM`, UTC. */
  month: string;
  /** The masked key (usage-attribution.ts); empty for work no key can be named for. */
  apiKey: string;
  credits: number;
  tokens: number;
}

/** The calendar month (UTC) a moment falls in, as `YYYY-MM`. */
export const monthOf = (at: Date) => at.toISOString().slice(0, 7);

/**
 * Usage rolled up by team, month and API key, kept up to date as credits are booked and tokens
 * spent, so that the historical usage routes read a few documents instead of summing a ledger
 * that grows with every page.
 */
export function createUsageMonthStore(database: Database) {
  const months: Collection<UsageMonth> = database.collection('usage_months');

  return {
    async ensureIndexes() {
      await months.createIndex({ name: 'team_month', keys: { teamId: 1, month: 1 } });
    },

    /** Adds to (or, with negative numbers, takes from) a month's usage in one atomic upsert. */
    async add({
      teamId,
      apiKey,
      at,
      credits = 0,
      tokens = 0,
    }: {
      teamId: string;
      apiKey: string | undefined;
      at: Date;
      credits?: number;
      tokens?: number;
    }): Promise<void> {
      if (credits === 0 && tokens === 0) return;
      const month = monthOf(at);
      const key = apiKey ?? '';
      await months.updateOne(
        { _id: `${teamId}|${month}|${key}` },
        {
          $inc: { credits, tokens },
          $setOnInsert: { teamId, month, apiKey: key },
        },
        { upsert: true },
      );
    },

    /** The team's months, oldest first, one document per month and key. */
    forTeam: (teamId: string) => months.find({ teamId }, { sort: { month: 1, apiKey: 1 } }),
  };
}

export type UsageMonthStore = ReturnType<typeof createUsageMonthStore>;
