import { DuplicateKeyError, type Collection, type Database, type StoredDocument } from '../database';
import { usageAttribution } from './usage-attribution';
import type { TeamStore } from './team-store';
import type { UsageMonthStore } from './usage-month-store';

export interface LedgerEntry extends StoredDocument {
  /** `_id` is the charge's idempotency key, e.g. `scrape:<scrapeId>`: the same charge twice is one charge. */
  teamId: string;
  credits: number;
  reason: string;
  /** `reserved` while the work runs (the credits are taken, the price is not final yet). */
  state?: 'reserved' | 'charged';
  at: Date;
  /** The masked API key the work came with (usage-attribution.ts), for usage by key. */
  apiKey?: string;
  /**
   * The server instance that holds a reservation (instances sharing a database): when it is gone
   * (cluster/instance-registry.ts), another instance gives the credits back at once.
   */
  holder?: string;
}

/** What `reserve` found or made. */
export type Reservation =
  | { status: 'reserved'; credits: number }
  | { status: 'charged'; credits: number }
  | { status: 'insufficient' };

/**
 * The credit ledger: one entry per charge, idempotent by key, with the team's running totals kept
 * beside it (team-store `creditsUsed`/`creditsLeft`) so that a balance needs no sum over the
 * ledger. Credits are taken before the work starts (`reserve`), in one update conditional on the
 * balance, so that concurrent requests cannot spend more than a team has; `settle` fixes the
 * price when the work is done and `release` gives the credits back when it failed. A process
 * that dies between the ledger write and the team update leaves a drift that `reconcile` removes.
 */
/** Work to pay for: `key` names it, so that a retry of the same work is one charge. */
export interface LedgerRequest {
  key: string;
  teamId: string;
  credits: number;
  reason: string;
  now?: Date;
  /** The masked key to book it under; by default the attribution of the work running now. */
  apiKey?: string | undefined;
}

/** Ledger reasons of work that is not a page (queue status's most recent success). */
const NOT_PAGES = ['map', 'search', 'extract', 'llmstxt', 'agent', 'browser'] as const;

const attributedKey = (request: LedgerRequest) => request.apiKey ?? usageAttribution()?.apiKey;

export function createCreditLedgerStore(
  database: Database,
  teams: TeamStore,
  usage?: UsageMonthStore,
  /** This server instance's id, recorded on its reservations. */
  holder?: string,
) {
  const ledger: Collection<LedgerEntry> = database.collection('credit_ledger');

  /**
   * Keeps the monthly rollup in step with the ledger. The ledger is the truth: a rollup write that
   * fails leaves the history a little short, never the balance wrong, so it does not fail the charge.
   */
  const rollUp = async (entry: Pick<LedgerEntry, 'teamId' | 'apiKey' | 'at'>, credits: number) => {
    if (usage === undefined || credits === 0) return;
    await usage
      .add({ teamId: entry.teamId, apiKey: entry.apiKey, at: entry.at, credits })
      .catch(() => undefined);
  };

  const existing = async (key: string): Promise<Reservation | undefined> => {
    const entry = await ledger.findOne({ _id: key });
    if (entry === undefined) return undefined;
    return { status: entry.state === 'reserved' ? 'reserved' : 'charged', credits: entry.credits };
  };

  /** Writes the entry for credits already taken; gives them back when the key was taken first. */
  const record = async (entry: LedgerEntry): Promise<boolean> => {
    try {
      await ledger.insertOne(entry);
      await rollUp(entry, entry.credits);
      return true;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      await teams.returnCredits(entry.teamId, entry.credits);
      return false;
    }
  };

  const reserving = new Map<string, Promise<Reservation>>();
  const reserveOnce = async (request: LedgerRequest) => {
    const { key, teamId, credits, reason, now = new Date() } = request;
    const found = await existing(key);
    // Work that runs again here (its first instance died) holds the reservation from now on, so
    // that the sweep of the dead instance's reservations (releaseOrphaned) leaves it alone.
    if (found?.status === 'reserved' && holder !== undefined) {
      await ledger.updateOne({ _id: key, state: 'reserved', holder: { $ne: holder } }, { $set: { holder } });
    }
    if (found !== undefined) return found;
    if (!(await teams.takeCredits(teamId, credits))) return { status: 'insufficient' } as const;
    const apiKey = attributedKey(request);
    const entry: LedgerEntry = {
      _id: key,
      teamId,
      credits,
      reason,
      state: 'reserved',
      at: now,
      ...(holder === undefined ? {} : { holder }),
    };
    if (await record(apiKey === undefined ? entry : { ...entry, apiKey }))
      return { status: 'reserved', credits } as const;
    return (await existing(key)) ?? ({ status: 'insufficient' } as const);
  };

  const release = async (key: string): Promise<boolean> => {
    const entry = await ledger.findOne({ _id: key, state: 'reserved' });
    if (entry === undefined) return false;
    const { deleted } = await ledger.deleteOne({ _id: key, state: 'reserved', credits: entry.credits });
    if (deleted === 1) {
      await teams.returnCredits(entry.teamId, entry.credits);
      await rollUp(entry, -entry.credits);
    }
    return deleted === 1;
  };

  return {
    async ensureIndexes() {
      await ledger.createIndex({ name: 'team_time', keys: { teamId: 1, at: 1 } });
      await ledger.createIndex({ name: 'state_time', keys: { state: 1, at: 1 } });
    },

    /**
     * Takes `credits` for work about to run under `key`. A key seen before answers with what it
     * holds (a retried page keeps its reservation, a finished one is not charged again).
     */
    reserve(request: LedgerRequest): Promise<Reservation> {
      // The same key reserved twice at once in this process is one reservation: a second taker
      // would hold credits until its insert failed, and a team near its limit would refuse other
      // work meanwhile. (Across instances the duplicate insert still sorts it out, later.)
      const pending = reserving.get(request.key);
      if (pending !== undefined) return pending;
      const reservation = reserveOnce(request).finally(() => reserving.delete(request.key));
      reserving.set(request.key, reservation);
      return reservation;
    },

    /**
     * Fixes the price of reserved work: the difference is taken (as far as the team has credits;
     * the work is done) or given back. Returns the credits charged, or undefined when the key
     * holds no reservation (charged already, or never reserved).
     */
    async settle(key: string, credits: number): Promise<number | undefined> {
      const entry = await ledger.findOne({ _id: key, state: 'reserved' });
      if (entry === undefined) return undefined;
      const extra =
        credits > entry.credits ? await teams.takeCreditsUpTo(entry.teamId, credits - entry.credits) : 0;
      const charged = Math.min(credits, entry.credits) + extra;
      const settled = await ledger.findOneAndUpdate(
        { _id: key, state: 'reserved', credits: entry.credits },
        { $set: { state: 'charged', credits: charged } },
      );
      if (settled === undefined) {
        await teams.returnCredits(entry.teamId, extra);
        return undefined;
      }
      if (charged < entry.credits) await teams.returnCredits(entry.teamId, entry.credits - charged);
      await rollUp(entry, charged - entry.credits);
      return charged;
    },

    /** Gives a reservation back (the work failed); false when there was none to give back. */
    release,

    /**
     * Records a charge once for work that is done already, as far as the team has credits left
     * (never below zero); returns false when this key was charged already.
     */
    async charge(request: LedgerRequest) {
      const { key, teamId, credits, reason, now = new Date() } = request;
      if ((await ledger.findOne({ _id: key })) !== undefined) return false;
      const taken = await teams.takeCreditsUpTo(teamId, credits);
      const apiKey = attributedKey(request);
      const entry: LedgerEntry = { _id: key, teamId, credits: taken, reason, state: 'charged', at: now };
      return record(apiKey === undefined ? entry : { ...entry, apiKey });
    },

    /**
     * Releases the reservations of instances that are gone (not among `liveHolders`), made before
     * `before` (an instance that just started may not be listed yet): their work died with them.
     */
    async releaseOrphaned({ liveHolders, before }: { liveHolders: readonly string[]; before: Date }) {
      const orphaned = await ledger.find(
        { state: 'reserved', holder: { $exists: true, $nin: [...liveHolders] }, at: { $lt: before } },
        { limit: 1000 },
      );
      let released = 0;
      for (const entry of orphaned) {
        // Only while the dead instance still holds it: one that took the work over keeps it.
        const { deleted } = await ledger.deleteOne({
          _id: entry._id,
          state: 'reserved',
          holder: entry.holder as string,
          credits: entry.credits,
        });
        if (deleted !== 1) continue;
        await teams.returnCredits(entry.teamId, entry.credits);
        await rollUp(entry, -entry.credits);
        released += 1;
      }
      return released;
    },

    /** Releases reservations older than `before`: work whose process died before it settled. */
    async releaseStale(before: Date): Promise<number> {
      const stale = await ledger.find({ state: 'reserved', at: { $lt: before } }, { limit: 1000 });
      let released = 0;
      for (const entry of stale) if (await release(entry._id)) released += 1;
      return released;
    },

    /**
     * When the team's latest page (a scrape, or a page of a crawl or batch) was charged since `since`:
     * pages are charged when they succeed, and the other work (map, search) is not a page.
     */
    async lastPageChargedSince(teamId: string, since: Date): Promise<Date | undefined> {
      const entry = await ledger.findOne(
        { teamId, state: 'charged', at: { $gte: since }, reason: { $nin: [...NOT_PAGES] } },
        { sort: { at: -1 } },
      );
      return entry?.at;
    },

    entriesForTeam: (teamId: string, { limit = 100 }: { limit?: number } = {}) =>
      ledger.find({ teamId }, { sort: { at: -1 }, limit }),

    /** The teams with ledger entries made since `since` (at most 10,000 entries looked at). */
    async teamsActiveSince(since: Date): Promise<string[]> {
      const entries = await ledger.find({ at: { $gte: since } }, { limit: 10_000 });
      return [...new Set(entries.map((entry) => entry.teamId))];
    },

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
