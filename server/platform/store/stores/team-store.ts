import { randomBytes } from 'node:crypto';
import {
  type Collection,
  type Database,
  type Filter,
  type StoredDocument,
  insertIfAbsent,
} from '../database';

export interface TeamRecord extends StoredDocument {
  name: string;
  /** Credits the team may spend in all; null means unlimited (the default for self-hosting). */
  creditAllowance: number | null;
  /** Credits spent or reserved so far, kept in step with the ledger by `credit-ledger-store`. */
  creditsUsed: number;
  /**
   * `(creditAllowance ?? 0) - creditsUsed`, changed in the same update as `creditsUsed`, so that a
   * charge can be a single update conditional on `creditsLeft >= cost` (absent on teams stored
   * before it existed: `migrateCredits` adds it).
   */
  creditsLeft?: number;
  /** Page tasks and scrapes the team may run at once; absent means the server's TEAM_CONCURRENCY. */
  maxConcurrency?: number;
  /** Requests per minute; absent means the server's RATE_LIMIT_PER_MINUTE (0 = no limit). */
  rateLimitPerMinute?: number;
  /** Key of the team's webhook signatures (`X-Firecrawl-Signature`); made on first use. */
  webhookSecret?: string;
  createdAt: Date;
}

/** The settings an operator can change (keys CLI, admin API). */
export type TeamSettings = Partial<
  Pick<TeamRecord, 'name' | 'creditAllowance' | 'maxConcurrency' | 'rateLimitPerMinute'>
>;

const newTeam = (id: string, name: string, now: Date): TeamRecord => ({
  _id: id,
  name,
  creditAllowance: null,
  creditsUsed: 0,
  creditsLeft: 0,
  createdAt: now,
});

/** Teams: who owns keys, jobs, credits and donated browsers. */
export function createTeamStore(database: Database) {
  const teams: Collection<TeamRecord> = database.collection('teams');

  /** Gives a team stored before `creditsLeft` existed its value (compare-and-set on `creditsUsed`). */
  const migrateCredits = async (team: TeamRecord) => {
    if (team.creditsLeft !== undefined) return;
    await teams.updateOne(
      {
        _id: team._id,
        creditsUsed: team.creditsUsed,
        creditAllowance: team.creditAllowance,
        creditsLeft: { $exists: false },
      },
      { $set: { creditsLeft: (team.creditAllowance ?? 0) - team.creditsUsed } },
    );
  };

  // FerretDB 1.x drops null fields from `$setOnInsert`; an absent allowance is no allowance.
  const normalise = (team: TeamRecord | undefined) =>
    team === undefined ? undefined : { ...team, creditAllowance: team.creditAllowance ?? null };

  const get = async (id: string) => {
    const team = normalise(await teams.findOne({ _id: id }));
    if (team === undefined || team.creditsLeft !== undefined) return team;
    await migrateCredits(team);
    return normalise(await teams.findOne({ _id: id }));
  };

  /** Moves `credits` between used and left in one update; `guard` adds the condition it needs. */
  const shift = async (id: string, credits: number, guard: Filter = {}) =>
    (
      await teams.updateOne(
        { _id: id, creditsLeft: { $exists: true }, ...guard },
        { $inc: { creditsUsed: credits, creditsLeft: -credits } },
      )
    ).matched === 1;

  /** Creates the team if it does not exist; an existing team keeps its settings and balance. */
  const ensure = async ({ id, name, now = new Date() }: { id: string; name: string; now?: Date }) => {
    const { _id, ...fields } = newTeam(id, name, now);
    await teams.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true });
    return (await get(id)) as TeamRecord;
  };

  /** The condition under which a team can pay `credits`. */
  const affordable = (credits: number): Filter => ({
    $or: [{ creditAllowance: null }, { creditsLeft: { $gte: credits } }],
  });

  return {
    async ensureIndexes() {},

    /** Creates the team if it does not exist; an existing team keeps its settings and balance. */
    ensure,

    /** Creates a team; false when one with this id exists already. */
    async create({
      id,
      name = id,
      now = new Date(),
      ...settings
    }: { id: string; name?: string; now?: Date } & TeamSettings) {
      const team = { ...newTeam(id, name, now), ...settings };
      team.creditsLeft = (team.creditAllowance ?? 0) - team.creditsUsed;
      return insertIfAbsent(teams, team);
    },

    get,

    list: async () => (await teams.find({}, { sort: { createdAt: 1 } })).map((team) => normalise(team)!),

    /**
     * Changes settings. A new allowance moves `creditsLeft` by the difference in the same
     * conditional update, so charges running meanwhile are neither lost nor counted twice.
     * `null` for maxConcurrency or rateLimitPerMinute goes back to the server default.
     */
    async configure(
      id: string,
      settings: Omit<TeamSettings, 'maxConcurrency' | 'rateLimitPerMinute'> & {
        maxConcurrency?: number | null;
        rateLimitPerMinute?: number | null;
      },
    ) {
      const { creditAllowance, ...rest } = settings;
      const $set: Record<string, unknown> = {};
      const $unset: Record<string, true> = {};
      for (const [field, value] of Object.entries(rest)) {
        if (value === undefined) continue;
        if (value === null) $unset[field] = true;
        else $set[field] = value;
      }
      if (Object.keys($set).length + Object.keys($unset).length > 0)
        await teams.updateOne(
          { _id: id },
          {
            ...(Object.keys($set).length > 0 ? { $set } : {}),
            ...(Object.keys($unset).length > 0 ? { $unset } : {}),
          },
        );
      if (creditAllowance !== undefined) {
        for (;;) {
          const team = await get(id);
          if (team === undefined) return undefined;
          const delta = (creditAllowance ?? 0) - (team.creditAllowance ?? 0);
          const moved = await teams.updateOne(
            { _id: id, creditAllowance: team.creditAllowance },
            { $set: { creditAllowance }, $inc: { creditsLeft: delta } },
          );
          if (moved.matched === 1) break;
        }
      }
      return get(id);
    },

    /** The team's webhook secret, generated and stored the first time it is asked for. */
    async webhookSecret(id: string): Promise<string | undefined> {
      await teams.updateOne(
        { _id: id, webhookSecret: { $exists: false } },
        { $set: { webhookSecret: randomBytes(32).toString('hex') } },
      );
      return (await teams.findOne({ _id: id }))?.webhookSecret;
    },

    /**
     * Takes `credits` from the team if it has them (or has no allowance), in one conditional
     * update: concurrent takes can never leave it below zero. False when it has too few. A team
     * that authenticated but is not stored yet (its first start met a database outage) is
     * created unlimited on the way.
     */
    async takeCredits(id: string, credits: number): Promise<boolean> {
      if (credits <= 0) return true;
      if (await shift(id, credits, affordable(credits))) return true;
      // A team missing, or missing its `creditsLeft`, gets them now; then once more.
      if ((await get(id)) === undefined) await ensure({ id, name: id });
      return shift(id, credits, affordable(credits));
    },

    /**
     * Takes up to `credits`, as many as the team has left; returns how many it took. For work that
     * is done already: it is charged what can be charged, never into a negative balance.
     */
    async takeCreditsUpTo(id: string, credits: number): Promise<number> {
      if (credits <= 0) return 0;
      // Each round loses only to a concurrent change of the balance; a few rounds always settle it.
      for (let round = 0; round < 100; round += 1) {
        if (await shift(id, credits, affordable(credits))) return credits;
        const team = (await get(id)) ?? (await ensure({ id, name: id }));
        if (team.creditAllowance === null) continue;
        const left = team.creditsLeft ?? 0;
        if (left <= 0) return 0;
        if (
          left < credits &&
          (await shift(id, left, { creditAllowance: team.creditAllowance, creditsLeft: left }))
        )
          return left;
      }
      return 0;
    },

    /** Gives credits back (a released reservation, a page that cost less than reserved). */
    returnCredits: (id: string, credits: number) =>
      credits > 0 ? shift(id, -credits) : Promise.resolve(true),

    /** Adds to the spent credits without a condition: reconciliation with the ledger. */
    addCreditsUsed: (id: string, credits: number) => shift(id, credits),
  };
}

export type TeamStore = ReturnType<typeof createTeamStore>;
