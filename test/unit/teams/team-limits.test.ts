import { describe, expect, it } from 'vitest';
import { silentLog } from '../../../server/platform/log/log';
import { createTeamLimits } from '../../../server/platform/teams/team-limits';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

const embedded = useEmbeddedStores();

describe('team limits', () => {
  const limits = () =>
    createTeamLimits({
      teams: embedded.stores.teams,
      pageTasks: embedded.stores.pageTasks,
      rateWindows: embedded.stores.rateWindows,
      defaults: { concurrency: 3, ratePerMinute: 0 },
      log: silentLog,
    });

  it('admits a team’s scrapes up to its concurrency and refuses the rest with 429 and Retry-After', async () => {
    const team = limits();
    const admitted = await Promise.allSettled(Array.from({ length: 5 }, () => team.admit('busy')));
    const granted = admitted.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    expect(granted).toHaveLength(3);
    const refused = admitted.find((result) => result.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason).toMatchObject({
      kind: 'rate-limited',
      code: 'CONCURRENCY_LIMIT_EXCEEDED',
      retryAfterSeconds: 1,
    });
    expect(await team.concurrency('busy')).toEqual({ concurrency: 3, maxConcurrency: 3 });
    // Another team has slots of its own; a released slot can be taken again.
    await expect(team.admit('quiet')).resolves.toBeTypeOf('function');
    granted[0]?.();
    granted[0]?.();
    expect((await team.concurrency('busy')).concurrency).toBe(2);
    await expect(team.admit('busy')).resolves.toBeTypeOf('function');
  });

  it('uses the team’s own concurrency setting over the server default', async () => {
    await embedded.stores.teams.create({ id: 'big', maxConcurrency: 5 });
    expect(await limits().concurrency('big')).toEqual({ concurrency: 0, maxConcurrency: 5 });
  });
});
