import { randomUUID } from 'node:crypto';
import type { Log } from '../../platform/log';
import { StoreUnavailableError, type CreditLedgerStore, type TeamStore } from '../../platform/store';
import { ensureCreditsLeft } from '../../platform/teams';

/** A map costs one credit, whatever it returns (docs/wire-contract.md §9). */
export const MAP_CREDITS = 1;

/** Map's credit rules: a team with an allowance needs a credit left, and each map books one. */
export function createMapCharging({
  teams,
  creditLedger,
  log,
}: {
  teams: TeamStore;
  creditLedger: CreditLedgerStore;
  log: Log;
}) {
  return {
    async ensureCredit(teamId: string) {
      await ensureCreditsLeft(teams, teamId);
    },

    async charge(teamId: string) {
      try {
        await creditLedger.charge({
          key: `map:${randomUUID()}`,
          teamId,
          credits: MAP_CREDITS,
          reason: 'map',
        });
      } catch (err) {
        // The map is answered already; an outage loses the booking, not the caller's result.
        if (!(err instanceof StoreUnavailableError)) throw err;
        log.warn('credit ledger unavailable; map not charged', { teamId, error: err.message });
      }
    },
  };
}

export type MapCharging = ReturnType<typeof createMapCharging>;
