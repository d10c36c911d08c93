import { insertIfAbsent, type Collection, type Database, type StoredDocument } from '../database';
import type { TeamStore } from './team-store';

export interface LedgerEntry extends StoredDocument {
  /** `_id` is the charge's idempotency key, e.g. `scrape:<scrapeId>`: the same charge twice is one charge. */
  teamId: string;
  credits: number;
  reason: string;
  at: Date;
}

/**
 * The credit ledger: one entry per charge, idempotent by key, with the team's running total kept
 * beside it so that balances do not need a sum over the whole ledger. `reconcile` recomputes the
 * total from the ledger, for a process that died between the two writes.
 */
export function createCreditLedgerStore(database: Database, teams: TeamStore) {
  const ledger: Collection<LedgerEntry> = database.collection('credit_ledger');

  return {
    async ensureIndexes() {
      await ledger.createIndex({ name: 'team_time', keys: { teamId: 1, at: 1 } });
    },

    /** Records a charge once; returns false when this key was charged already. */
    async charge({
      key,
      teamId,
      credits,
      reason,
      now = new Date(),
    }: {
      key: string;
      teamId: string;
      credits: number;
      reason: string;
      now?: Date;
    }) {
      if (!(await insertIfAbsent(ledger, { _id: key, teamId, credits, reason, at: now }))) return false;
      await teams.addCreditsUsed(teamId, credits);
      return true;
    },

    entriesForTeam: (teamId: string, { limit = 100 }: { limit?: number } = {}) =>
      ledger.find({ teamId }, { sort: { at: -1 }, limit }),

    /** Sets the team's running total to the ledger's sum and returns it. */
    async reconcile(teamId: string) {
      const entries = await ledger.find({ teamId });
      const total = entries.reduce((sum, entry) => sum + entry.credits, 0);
      const team = await teams.get(teamId);
      if (team !== undefined && team.creditsUsed !== total)
        await teams.addCreditsUsed(teamId, total - team.creditsUsed);
      return total;
    },
  };
}

export type CreditLedgerStore = ReturnType<typeof createCreditLedgerStore>;
