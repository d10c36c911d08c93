import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferretDbForTests, startFerretDb, type FerretDb } from '../helpers/ferretdb';
import { silentLog } from '../../server/platform/log/log';
import { createStores } from '../../server/platform/store/create-stores';
import { openDatabase } from '../../server/platform/store/open-database';
import { TEST_API_KEY, startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';
import { type MonitorSite, startMonitorSite } from '../integration/monitors/monitor-site';

type Tabhive = Awaited<ReturnType<typeof startTestTabhive>>;

interface Check {
  id: string;
  status: string;
  trigger: string;
  scheduledFor: string | null;
  summary: Record<string, number>;
  targetResults: Array<{ crawlId?: string }>;
}
interface Page {
  url: string;
  status: string;
  diff: { text?: string } | null;
}

/**
 * Two Tabhive instances on one MongoDB-protocol database (FerretDB) share a monitor that runs
 * every 3 seconds: each scheduled run happens once (checks and fixture-site requests counted),
 * changes on the site are reported, and a restart neither skips nor doubles a run. The instances
 * have no browser: the fixture's plain HTML takes the HTTP fast path.
 */
const binary = ferretDbForTests();

describe.skipIf(binary === undefined)('monitors on two instances sharing one database', () => {
  let ferret: FerretDb;
  let site: MonitorSite;
  const instances: Tabhive[] = [];
  let env: Record<string, string>;

  const start = async () => {
    const tabhive = await startTestTabhive({ browsers: 1, env });
    instances.push(tabhive);
    return tabhive;
  };
  const stop = async (tabhive: Tabhive) => {
    instances.splice(instances.indexOf(tabhive), 1);
    await tabhive.stop();
  };

  beforeAll(async () => {
    ferret = await startFerretDb(binary!);
    env = {
      MONGODB_URL: ferret.url('tabhive_monitors'),
      MONITOR_MIN_INTERVAL_SECONDS: '1',
      TEAM_CONCURRENCY: '100',
    };
    site = await startMonitorSite({
      '/': { title: 'Home', body: 'Welcome.', links: ['/a', '/b'] },
      '/a': { title: 'A', body: 'Alpha version 1.' },
      '/b': { title: 'B', body: 'Bravo.' },
    });
  });

  afterAll(async () => {
    for (const tabhive of [...instances]) await tabhive.stop();
    await site?.close();
    await ferret?.dispose();
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
  async function call(tabhive: Tabhive, method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${tabhive.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as { success: boolean };
    expect(json.success, `${method} ${path}: ${JSON.stringify(json)}`).toBe(true);
    return json;
  }

  const checksOf = async (tabhive: Tabhive, id: string): Promise<Check[]> =>
    ((await call(tabhive, 'GET', `/v2/monitor/${id}/checks?limit=100`)).data as Check[]).reverse();
  const pagesOf = async (tabhive: Tabhive, id: string, checkId: string): Promise<Page[]> =>
    (await call(tabhive, 'GET', `/v2/monitor/${id}/checks/${checkId}`)).data.pages as Page[];
  const finished = (checks: Check[]) => checks.filter((check) => check.status !== 'running');
  const statusOf = (pages: Page[]) =>
    Object.fromEntries(pages.map((page) => [new URL(page.url).pathname, page.status]));

  /** Pauses the monitor and waits until no check of it runs: the site may then change between two checks. */
  async function pauseAndSettle(tabhive: Tabhive, id: string) {
    await call(tabhive, 'PATCH', `/v2/monitor/${id}`, { status: 'paused' });
    await waitUntil(
      async () => (await call(tabhive, 'GET', `/v2/monitor/${id}`)).data.currentCheckId === null,
      60_000,
      'the running check to finish',
    );
  }

  /**
   * Every scheduled run happened once: distinct due times, one crawl job per check, and the start
   * page fetched by each. (A crawl's page task may run on both instances when FerretDB 1.x, which
   * does not isolate conditional updates, hands it to both: a page may be fetched twice by one
   * crawl, never by two checks of one run.)
   */
  async function expectEachRunOnce(tabhive: Tabhive, id: string) {
    const checks = await checksOf(tabhive, id);
    expect(checks.every((check) => check.status === 'completed')).toBe(true);
    const scheduled = checks.map((check) => check.scheduledFor);
    expect(new Set(scheduled).size).toBe(scheduled.length);
    const crawls = checks.map((check) => check.targetResults[0]?.crawlId);
    expect(new Set(crawls).size).toBe(checks.length);
    expect(site.hits('/')).toBeGreaterThanOrEqual(checks.length);
    expect(site.hits('/')).toBeLessThanOrEqual(2 * checks.length);
    return checks;
  }

  it('runs each scheduled check once, reports changes, and survives a restart', async () => {
    const one = await start();
    const two = await start();
    const created = await call(one, 'POST', '/v2/monitor', {
      name: 'site',
      schedule: { cron: '*/3 * * * * *', timezone: 'UTC' },
      targets: [
        { id: 'site', type: 'crawl', url: site.url('/'), crawlOptions: { limit: 10, sitemap: 'skip' } },
      ],
    });
    const id = created.data.id as string;
    expect(created.data.schedule).toEqual({ cron: '*/3 * * * * *', timezone: 'UTC' });

    // Two scheduled checks with both instances ticking: the first sees every page new, the second the same.
    await waitUntil(async () => finished(await checksOf(two, id)).length >= 2, 60_000, 'two checks');
    await pauseAndSettle(two, id);
    let checks = await expectEachRunOnce(one, id);
    expect(checks.every((check) => check.trigger === 'scheduled')).toBe(true);
    expect(statusOf(await pagesOf(one, id, checks[0]!.id))).toEqual({ '/': 'new', '/a': 'new', '/b': 'new' });
    for (const check of checks.slice(1)) {
      expect(statusOf(await pagesOf(one, id, check.id))).toEqual({ '/': 'same', '/a': 'same', '/b': 'same' });
    }

    // The site changes between two checks: /a changes, /b is gone, /c is new.
    site.set('/', { title: 'Home', body: 'Welcome.', links: ['/a', '/c'] });
    site.set('/a', { title: 'A', body: 'Alpha version 2.' });
    site.set('/b', undefined);
    site.set('/c', { title: 'C', body: 'Charlie.' });
    const before = checks.length;
    await call(one, 'PATCH', `/v2/monitor/${id}`, { status: 'active' });
    await waitUntil(
      async () => finished(await checksOf(one, id)).length > before,
      60_000,
      'a check of the changed site',
    );
    await pauseAndSettle(one, id);
    checks = await expectEachRunOnce(two, id);
    const afterChange = await pagesOf(two, id, checks[before]!.id);
    expect(statusOf(afterChange)).toEqual({ '/': 'changed', '/a': 'changed', '/c': 'new', '/b': 'removed' });
    const alpha = afterChange.find((page) => page.url === site.url('/a'))!;
    expect(alpha.diff?.text).toContain('-Alpha version 1.');
    expect(alpha.diff?.text).toContain('+Alpha version 2.');
    expect(checks[before]!.summary).toEqual({
      totalPages: 4,
      same: 0,
      changed: 2,
      new: 1,
      removed: 1,
      error: 0,
    });
    const bravoFetches = site.hits('/b');

    // A restart: one instance stops, the other carries on, then it stops too; while none runs,
    // several runs fall due; on start the missed run happens once, and the schedule goes on.
    await call(one, 'PATCH', `/v2/monitor/${id}`, { status: 'active' });
    await stop(two);
    const beforeStop = finished(await checksOf(one, id)).length;
    await waitUntil(
      async () => finished(await checksOf(one, id)).length > beforeStop,
      60_000,
      'a check on one instance',
    );
    await stop(one);
    // Read from the database itself: no instance runs now.
    const database = await openDatabase({
      mongodbUrl: env.MONGODB_URL,
      dataDir: '/nonexistent',
      log: silentLog,
    });
    const [latest] = await createStores(database).monitorChecks.list(id, { offset: 0, limit: 1 });
    await database.close();
    const lastScheduled = latest!.scheduledFor!.getTime();
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    const restartedAt = Date.now();
    const three = await start();
    await waitUntil(
      async () =>
        finished(await checksOf(three, id)).filter((check) => Date.parse(check.scheduledFor!) > restartedAt)
          .length >= 1,
      60_000,
      'a check after the restart',
    );
    await pauseAndSettle(three, id);
    checks = await expectEachRunOnce(three, id);
    const missed = checks.filter((check) => {
      const at = Date.parse(check.scheduledFor!);
      return at > lastScheduled && at <= restartedAt;
    });
    expect(missed).toHaveLength(1);
    // No check after the change fetched the unlinked page again.
    expect(site.hits('/b')).toBe(bravoFetches);
    console.log(
      'monitor on two instances:',
      JSON.stringify({
        checks: checks.length,
        startPageRequests: site.hits('/'),
        missedRunsCollapsedInto: missed.length,
      }),
    );
  }, 240_000);
});
