import { errors } from '../errors';
import type { Log } from '../log';
import {
  StoreUnavailableError,
  type ConcurrencySlotStore,
  type PageTaskStore,
  type RateWindowStore,
  type TeamRecord,
  type TeamStore,
} from '../store';

/** How long a team's settings are reused between reads: a changed limit applies within this time. */
const SETTINGS_CACHE_MS = 2_000;
/**
 * A scrape's slot in the store counts for this long unless renewed (every third of it while the
 * scrape runs): the slots of an instance that died stop counting within this time.
 */
export const SLOT_TTL_MS = 60_000;

export interface TeamLimitDefaults {
  /** TEAM_CONCURRENCY */
  concurrency: number;
  /** RATE_LIMIT_PER_MINUTE; 0 = no limit. */
  ratePerMinute: number;
}

/**
 * A team's concurrency and request-rate limits (docs/teams-and-credits.md). Concurrency counts
 * the single scrapes the team runs (on this instance; with `concurrencySlots`, on every instance
 * sharing the database) plus the team's leased crawl and batch pages on every instance; a scrape beyond the team's limit is refused with 429 and Retry-After
 * (crawl pages wait in their queue instead). The rate limit counts the team's POST requests per
 * minute in the store, so instances sharing a database share the count. Both fail open while
 * the database is unreachable: limits protect the service, they must not take it down.
 */
export function createTeamLimits({
  teams,
  pageTasks,
  rateWindows,
  concurrencySlots,
  defaults,
  log,
}: {
  teams: TeamStore;
  pageTasks: PageTaskStore;
  rateWindows: RateWindowStore;
  /** Where instances sharing a database count their scrapes in flight; without it, in memory. */
  concurrencySlots?: ConcurrencySlotStore;
  defaults: TeamLimitDefaults;
  log: Log;
}) {
  const inFlight = new Map<string, number>();
  const settings = new Map<string, { team: TeamRecord | undefined; until: number }>();

  const teamOf = async (teamId: string) => {
    const cached = settings.get(teamId);
    if (cached !== undefined && cached.until > Date.now()) return cached.team;
    const team = await teams.get(teamId);
    if (settings.size > 10_000) settings.clear();
    settings.set(teamId, { team, until: Date.now() + SETTINGS_CACHE_MS });
    return team;
  };

  const maxConcurrency = async (teamId: string) =>
    (await teamOf(teamId))?.maxConcurrency ?? defaults.concurrency;

  const concurrency = async (teamId: string) => {
    const [pages, scrapes] = await Promise.all([
      pageTasks.countRunningForTeam(teamId),
      concurrencySlots === undefined ? (inFlight.get(teamId) ?? 0) : concurrencySlots.countLive(teamId),
    ]);
    return { concurrency: scrapes + pages, maxConcurrency: await maxConcurrency(teamId) };
  };

  /**
   * A slot in the store, for instances sharing a database: taken first, counted after, so that
   * admissions on two instances at once never both get past the limit (one may back off for
   * nothing, and its caller retries on 429). Renewed while the scrape runs.
   */
  const admitClustered = async (slots: ConcurrencySlotStore, teamId: string): Promise<() => void> => {
    let slotId: string;
    try {
      const max = await maxConcurrency(teamId);
      slotId = await slots.take(teamId, SLOT_TTL_MS);
      const [scrapes, pages] = await Promise.all([
        slots.countLive(teamId),
        pageTasks.countRunningForTeam(teamId),
      ]);
      if (scrapes + pages > max) {
        await slots.give(slotId).catch(() => undefined);
        throw errors.concurrencyLimit(max);
      }
    } catch (err) {
      failOpen('team concurrency', err);
      return () => undefined;
    }
    const renewal = setInterval(
      () => void slots.renew(slotId, SLOT_TTL_MS).catch(() => undefined),
      SLOT_TTL_MS / 3,
    );
    renewal.unref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      clearInterval(renewal);
      void slots.give(slotId).catch(() => undefined);
    };
  };

  const failOpen = (what: string, err: unknown) => {
    if (!(err instanceof StoreUnavailableError)) throw err;
    log.warn(`database unavailable; ${what} not enforced`, { error: err.message });
  };

  return {
    concurrency,

    /**
     * Takes one of the team's concurrency slots for a single scrape, or throws 429. The returned
     * function gives it back.
     */
    async admit(teamId: string): Promise<() => void> {
      if (concurrencySlots !== undefined) return admitClustered(concurrencySlots, teamId);
      let pages = 0;
      let max = defaults.concurrency;
      try {
        [pages, max] = await Promise.all([pageTasks.countRunningForTeam(teamId), maxConcurrency(teamId)]);
      } catch (err) {
        failOpen('team concurrency', err);
      }
      // No await between the check and the count: admissions in this process cannot overtake each other.
      const current = inFlight.get(teamId) ?? 0;
      if (current + pages >= max) throw errors.concurrencyLimit(max);
      inFlight.set(teamId, current + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (inFlight.get(teamId) ?? 1) - 1;
        if (left <= 0) inFlight.delete(teamId);
        else inFlight.set(teamId, left);
      };
    },

    /** Counts a request against the team's per-minute limit; throws 429 beyond it. */
    async countRequest(teamId: string, now = new Date()): Promise<void> {
      try {
        const limit = (await teamOf(teamId))?.rateLimitPerMinute ?? defaults.ratePerMinute;
        if (limit <= 0) return;
        const { count, resetsAt } = await rateWindows.hit(teamId, now);
        if (count > limit) throw errors.rateLimited({ limit, count, resetsAt, now });
      } catch (err) {
        failOpen('rate limit', err);
      }
    },
  };
}

export type TeamLimits = ReturnType<typeof createTeamLimits>;
