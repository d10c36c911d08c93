import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticKeyring, createStoreKeyring } from '../../../server/platform/auth/keyring';
import { consoleRoutes } from '../../../server/api/console/console-routes';
import { createConsoleDeps } from '../../../server/api/console/create-console-deps';
import { cors } from '../../../server/api/http/cors';
import { errorHandler } from '../../../server/api/http/error-handler';
import { notFound } from '../../../server/api/http/not-found';
import { createJobService } from '../../../server/products/jobs/create-job-service';
import { silentLog } from '../../../server/platform/log/log';
import { attributeUsage } from '../../../server/platform/store/stores/usage-attribution';
import { createTabhiveMetrics } from '../../../server/platform/metrics/create-tabhive-metrics';
import { serveApp } from '../../helpers/serve-app';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

/**
 * The console's JSON endpoints through real HTTP on real (embedded) stores: what each key sees,
 * the JSONL of a job, cancel, and usage by day from the credit ledger. The hub is one with no
 * browser connected (the browsers themselves are in test/e2e/console.test.ts).
 */

const ADMIN_KEY = 'admin-key-for-console-tests-0001';
const env = useEmbeddedStores();
let server: Awaited<ReturnType<typeof serveApp>>;
let keyA = '';
let keyB = '';
let jobA = '';
let consoleDeps: ReturnType<typeof createConsoleDeps>;
const metrics = createTabhiveMetrics();

const noBrowsers = {
  schedulerSnapshot: () => ({ workers: [], queued: { interactive: 0, normal: 0, background: 0 } }),
  engineStats: () => [],
  browserStatuses: () => [],
};

beforeAll(async () => {
  const { stores, database } = env;
  await stores.teams.create({ id: 'team-a', name: 'Team A' });
  await stores.teams.create({ id: 'team-b', name: 'Team B' });
  keyA = (await stores.apiKeys.create({ teamId: 'team-a', label: 'a' })).apiKey;
  keyB = (await stores.apiKeys.create({ teamId: 'team-b', label: 'b' })).apiKey;
  const jobs = createJobService({ stores });
  jobA = await jobs.startBatch('team-a', { scrapeOptions: { formats: ['markdown'] }, options: {} } as never, [
    'https://a.example/1',
    'https://a.example/2',
  ]);
  await stores.results.put({
    id: 'doc-1',
    teamId: 'team-a',
    jobId: jobA,
    sequence: 1,
    document: { markdown: '# One', metadata: { sourceURL: 'https://a.example/1' } },
  });
  await stores.creditLedger.charge({ key: 'scrape:x', teamId: 'team-a', credits: 3, reason: 'scrape' });
  await stores.creditLedger.charge({ key: 'crawl:y', teamId: 'team-b', credits: 5, reason: `crawl ${jobA}` });

  const app = new Koa();
  app.silent = true;
  const keyring = createStoreKeyring({
    apiKeys: stores.apiKeys,
    teams: stores.teams,
    fixed: createStaticKeyring([]),
  });
  consoleDeps = createConsoleDeps({
    database,
    stores,
    hub: noBrowsers,
    metrics,
    adminApiKey: ADMIN_KEY,
    log: silentLog,
  });
  const router = consoleRoutes({ keyring, jobs, console: consoleDeps });
  app
    .use(errorHandler({ log: silentLog }))
    .use(cors())
    .use(notFound())
    .use(router.routes());
  server = await serveApp(app);
});
afterAll(async () => server?.close());

/** Response bodies are what the server sent; tests assert on their shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type Body = any;
const get = async (
  key: string,
  path: string,
  method = 'GET',
): Promise<{ status: number; body: Body; text: string }> => {
  const response = await fetch(`${server.url}/console/api${path}`, {
    method,
    headers: { authorization: `Bearer ${key}` },
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, body, text };
};

describe('console API', () => {
  it('answers without a key or with a wrong one as the API does', async () => {
    const response = await fetch(`${server.url}/console/api/jobs`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, error: 'Unauthorized' });
    expect((await get('fc-nope', '/jobs')).status).toBe(401);
    // A key without its scheme is told so, as on the API.
    const bare = await fetch(`${server.url}/console/api/jobs`, { headers: { Authorization: keyA } });
    expect(bare.status).toBe(401);
    expect(((await bare.json()) as { error: string }).error).toMatch(
      /no scheme; send "Authorization: Bearer <key>"/,
    );
  });

  it("lists a team's own jobs only, with their counts; the admin sees every team's", async () => {
    const own = await get(keyA, '/jobs');
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual([
      expect.objectContaining({
        id: jobA,
        teamId: 'team-a',
        kind: 'batch',
        status: 'scraping',
        url: 'https://a.example/1',
        total: 2,
        completed: 1,
        failed: 0,
      }),
    ]);
    expect((await get(keyB, '/jobs')).body.data).toEqual([]);
    expect((await get(keyB, '/jobs?team=team-a')).body.data).toEqual([]);
    expect((await get(ADMIN_KEY, '/jobs')).body.data.map((job: { id: string }) => job.id)).toEqual([jobA]);
    expect((await get(ADMIN_KEY, '/jobs?team=team-b')).body.data).toEqual([]);
    expect((await get(ADMIN_KEY, '/whoami')).body.data).toEqual({ admin: true, team: null });
    expect((await get(keyA, '/whoami')).body.data).toEqual({
      admin: false,
      team: { id: 'team-a', name: 'Team A' },
    });
  });

  it("gives a job's pages, a page's document and the JSONL to its team and hides them from another", async () => {
    const detail = await get(keyA, `/jobs/${jobA}`);
    expect(
      detail.body.data.pages.map((page: { url: string; state: string }) => [page.url, page.state]),
    ).toEqual([
      ['https://a.example/1', 'queued'],
      ['https://a.example/2', 'queued'],
    ]);
    const document = await get(
      keyA,
      `/jobs/${jobA}/document?url=${encodeURIComponent('https://a.example/1')}`,
    );
    expect(document.body.data.markdown).toBe('# One');
    expect(
      (await get(keyA, `/jobs/${jobA}/document?url=${encodeURIComponent('https://a.example/2')}`)).status,
    ).toBe(404);
    const jsonl = await get(keyA, `/jobs/${jobA}/results.jsonl`);
    expect(
      jsonl.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([{ markdown: '# One', metadata: { sourceURL: 'https://a.example/1' } }]);

    for (const path of [`/jobs/${jobA}`, `/jobs/${jobA}/results.jsonl`, `/jobs/${jobA}/document?url=x`]) {
      expect(await get(keyB, path), path).toMatchObject({
        status: 404,
        body: { success: false, error: 'Job not found' },
      });
    }
    expect((await get(keyB, `/jobs/${jobA}/cancel`, 'POST')).status).toBe(404);
    expect((await env.stores.jobs.get(jobA))?.status).toBe('scraping');
  });

  it('books credits by day, key, route and (for the admin) team', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const own = (await get(keyA, '/usage?days=3')).body.data;
    expect(own.days).toHaveLength(3);
    expect(own.days.at(-1)).toEqual({ day: today, credits: 3 });
    expect(own.byRoute).toEqual([{ route: 'scrape', credits: 3 }]);
    expect(own.byTeam).toEqual([]);
    const all = (await get(ADMIN_KEY, '/usage?days=1')).body.data;
    expect(all.byTeam).toEqual([
      { teamId: 'team-b', credits: 5 },
      { teamId: 'team-a', credits: 3 },
    ]);
    expect(all.byRoute).toEqual([
      { route: 'crawl', credits: 5 },
      { route: 'scrape', credits: 3 },
    ]);
    expect((await get(keyA, '/usage?days=1000')).status).toBe(400);
  });

  it("gives a team key its own team's pages and cache figures, and the admin everyone's", async () => {
    // Pages counted while a team's work runs are that team's (the request's or the job's attribution).
    attributeUsage({ teamId: 'team-a', apiKey: undefined }, () => {
      metrics.pagesScraped.inc({ source: 'api', engine: 'browser' });
      metrics.pagesScraped.inc({ source: 'job', engine: 'http' });
      metrics.cacheLookups.inc({ result: 'hit' });
      metrics.cacheLookups.inc({ result: 'miss' });
      metrics.cacheLookups.inc({ result: 'miss' });
    });
    metrics.pagesScraped.inc({ source: 'api', engine: 'browser' }); // no team's
    expect((await get(keyA, '/overview')).body.data).toMatchObject({
      pagesScrapedTotal: 2,
      cacheHits: 1,
      cacheMisses: 2,
      browserTasksWaiting: null,
    });
    expect((await get(keyB, '/overview')).body.data).toMatchObject({
      pagesScrapedTotal: 0,
      cacheHits: 0,
      cacheMisses: 0,
    });
    expect((await get(ADMIN_KEY, '/overview')).body.data).toMatchObject({
      pagesScrapedTotal: 3,
      cacheHits: 1,
      cacheMisses: 2,
      browserTasksWaiting: 0,
    });
  });

  it("keeps an hour of overview figures, each team's apart", async () => {
    // A team that opens its overview is sampled from then on, active or not.
    expect((await get(keyB, '/overview/history')).body.data).toMatchObject({ samples: [] });
    // A sample takes in what was booked after the previous one, to the millisecond: a few apart.
    const later = () => new Promise((resolve) => setTimeout(resolve, 5));
    await consoleDeps.figures.tick();
    await later();
    await env.stores.creditLedger.charge({
      key: 'scrape:later',
      teamId: 'team-a',
      credits: 4,
      reason: 'scrape',
    });
    attributeUsage({ teamId: 'team-a', apiKey: undefined }, () =>
      metrics.pagesScraped.inc({ source: 'api', engine: 'browser' }, 3),
    );
    await later();
    await consoleDeps.figures.tick();

    const admin = (await get(ADMIN_KEY, '/overview/history')).body.data;
    expect(admin).toMatchObject({ everyMs: 15_000, keepMs: 3_600_000, clustered: false });
    expect(admin.instanceFigures).toEqual(['pagesPerSecond', 'tabsBusy']);
    expect(admin.samples).toHaveLength(2);
    const [first, last] = admin.samples;
    // No rate before two readings; then the pages counted between them.
    expect(first.values.pagesPerSecond).toBeUndefined();
    expect(last.values).toMatchObject({ credits: 4, failed: 0, queued: 2, tabsBusy: 0 });
    expect(last.values.pagesPerSecond).toBeGreaterThan(0);

    const teamA = (await get(keyA, '/overview/history')).body.data.samples.at(-1).values;
    expect(teamA).toMatchObject({ credits: 4, queued: 2 });
    expect(teamA.pagesPerSecond).toBeGreaterThan(0);
    const teamB = (await get(keyB, '/overview/history')).body.data.samples;
    expect(teamB).toHaveLength(2);
    expect(teamB.at(-1).values).toEqual({ pagesPerSecond: 0, credits: 0, failed: 0, queued: 0, tabsBusy: 0 });
  });

  it("cancels a team's own job; the overview counts the team's queue only", async () => {
    expect((await get(keyA, '/overview')).body.data).toMatchObject({
      queuedPages: 2,
      browsers: 0,
    });
    expect((await get(keyB, '/overview')).body.data.queuedPages).toBe(0);
    expect((await get(ADMIN_KEY, '/overview')).body.data).toMatchObject({ queuedPages: 2 });
    expect((await get(keyA, `/jobs/${jobA}/cancel`, 'POST')).body).toEqual({
      success: true,
      status: 'cancelled',
    });
    expect((await get(keyA, `/jobs/${jobA}`)).body.data.job.status).toBe('cancelled');
  });
});
