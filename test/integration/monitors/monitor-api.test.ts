import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../../helpers/fake-llm-server';
import { TEST_API_KEY, startTestTabhive, waitUntil } from '../../helpers/start-test-tabhive';
import { type MonitorSite, startMonitorSite } from './monitor-site';

/** Monitors through the HTTP API of a whole Tabhive (no browser: the fixture pages take the HTTP fast path). */
type Tabhive = Awaited<ReturnType<typeof startTestTabhive>>;

let tabhive: Tabhive;
let site: MonitorSite;
let llm: Awaited<ReturnType<typeof startFakeLlmServer>>;
let otherKey: string;
const events: Array<{ type: string; id: string; checkId: string; data: unknown[] }> = [];
let receiver: ReturnType<typeof createServer>;
let receiverUrl: string;

beforeAll(async () => {
  site = await startMonitorSite({
    '/price': { title: 'Price', body: 'The widget costs 10 euros.' },
    '/stock': { title: 'Stock', body: 'In stock.' },
  });
  llm = await startFakeLlmServer();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      events.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof events)[number]);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  tabhive = await startTestTabhive({
    browsers: 0,
    env: { MONITOR_MIN_INTERVAL_SECONDS: '1', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake' },
  });
  const { stores } = tabhive.tabhive;
  await stores.teams.create({ id: 'monitor-other' });
  otherKey = (await stores.apiKeys.create({ teamId: 'monitor-other', label: 'test' })).apiKey;
}, 60_000);

afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
  await llm?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

async function call(
  method: string,
  path: string,
  body?: unknown,
  key = TEST_API_KEY,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
): Promise<{ status: number; json: any }> {
  const response = await fetch(`${tabhive.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

const hourly = { text: 'hourly', timezone: 'UTC' };

async function createMonitor(body: Record<string, unknown>) {
  const created = await call('POST', '/v2/monitor', { name: 'test', schedule: hourly, ...body });
  expect(created.status, JSON.stringify(created.json)).toBe(200);
  return created.json.data as { id: string; [key: string]: unknown };
}

/** Runs a check now and waits until it has finished; returns the check with its pages. */
async function runToEnd(id: string) {
  const run = await call('POST', `/v2/monitor/${id}/run`, {});
  expect(run.status, JSON.stringify(run.json)).toBe(200);
  const checkId = run.json.data.id as string;
  let detail: { status: number; json: any } | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any -- see call()
  await waitUntil(
    async () => {
      detail = await call('GET', `/v2/monitor/${id}/checks/${checkId}`);
      return detail.json.data?.status !== 'running';
    },
    30_000,
    'the check to finish',
  );
  return detail!.json.data;
}

describe('monitor validation', () => {
  it('normalises a text schedule to cron and says what it became', async () => {
    const monitor = await createMonitor({
      schedule: { text: 'every 15 minutes', timezone: 'Europe/Paris' },
      targets: [{ type: 'scrape', urls: [site.url('/price')] }],
    });
    expect(monitor.schedule).toEqual({
      cron: '*/15 * * * *',
      text: 'every 15 minutes',
      timezone: 'Europe/Paris',
    });
    expect(monitor.status).toBe('active');
    expect(Date.parse(monitor.nextRunAt as string)).toBeGreaterThan(Date.now());
    expect(monitor.retentionDays).toBe(30);
    expect((monitor.targets as Array<{ id: string }>)[0]!.id).toMatch(/\S/);
    const daily = await createMonitor({
      schedule: { text: 'every monday at 10:00' },
      targets: [{ type: 'scrape', urls: [site.url('/price')] }],
    });
    expect(daily.schedule).toMatchObject({ cron: '0 10 * * 1', timezone: 'UTC' });
  });

  it.each([
    [{ cron: 'not a cron' }, 'Invalid cron'],
    [{ cron: '* * *' }, '5 fields'],
    [{ cron: '0 * * * *', timezone: 'Mars/Olympus' }, 'Unknown time zone'],
    [{ text: 'whenever you like' }, 'Could not read the schedule'],
    [{ text: 'every 7 minutes' }, 'evenly'],
    [{}, 'cron expression or a text'],
    [{ cron: '0 * * * *', text: 'daily' }, 'not the schedule.cron'],
  ])('refuses the schedule %j with a 400', async (schedule, message) => {
    const answer = await call('POST', '/v2/monitor', {
      name: 'bad',
      schedule,
      targets: [{ type: 'scrape', urls: [site.url('/price')] }],
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      error: expect.stringMatching(/^Bad Request: schedule/),
    });
    expect(JSON.stringify(answer.json.details)).toContain(message);
  });

  it('refuses bad targets with a 400 naming them', async () => {
    const cases: Array<[unknown, string]> = [
      [[], 'targets'],
      [Array.from({ length: 21 }, () => ({ type: 'scrape', urls: [site.url('/price')] })), 'targets'],
      [[{ type: 'scrape', urls: Array.from({ length: 101 }, (_, i) => site.url(`/p${i}`)) }], 'urls'],
      [[{ type: 'scrape', urls: ['ftp://example.com/'] }], 'unsupported protocol'],
      [[{ type: 'scrape', urls: [site.url('/price')], scrapeOptions: { waitFor: -1 } }], 'waitFor'],
      [[{ type: 'crawl', url: site.url('/'), crawlOptions: { limit: 5000 } }], 'at most 1000 pages'],
      [
        [{ type: 'crawl', url: site.url('/'), crawlOptions: { webhook: 'http://x.test/' } }],
        'set by the monitor',
      ],
      [[{ type: 'search', queries: [] }], 'queries'],
      [[{ type: 'teleport', urls: [] }], 'type'],
      [
        [
          { id: 'a', type: 'scrape', urls: [site.url('/a')] },
          { id: 'a', type: 'scrape', urls: [site.url('/b')] },
        ],
        'used twice',
      ],
    ];
    for (const [targets, message] of cases) {
      const answer = await call('POST', '/v2/monitor', { name: 'bad', schedule: hourly, targets });
      expect(answer.status, JSON.stringify(targets).slice(0, 80)).toBe(400);
      expect(JSON.stringify(answer.json), JSON.stringify(targets).slice(0, 80)).toContain(message);
    }
    const extra = await call('POST', '/v2/monitor', {
      name: 'x',
      schedule: hourly,
      targets: [],
      colour: 'red',
    });
    expect(extra.status).toBe(400);
    const malformed = await fetch(`${tabhive.url}/v2/monitor`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(malformed.status).toBe(400);
  });

  it("answers 404 for malformed, unknown and other teams' monitors on every route", async () => {
    const monitor = await createMonitor({ targets: [{ type: 'scrape', urls: [site.url('/price')] }] });
    const ids = ['not-a-uuid', '00000000-0000-4000-8000-000000000000'];
    for (const id of ids) {
      for (const [method, path] of [
        ['GET', `/v2/monitor/${id}`],
        ['PATCH', `/v2/monitor/${id}`],
        ['DELETE', `/v2/monitor/${id}`],
        ['POST', `/v2/monitor/${id}/run`],
        ['GET', `/v2/monitor/${id}/checks`],
        ['GET', `/v2/monitor/${id}/checks/${ids[1]}`],
      ] as const) {
        const answer = await call(method, path, method === 'PATCH' || method === 'POST' ? {} : undefined);
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.json).toMatchObject({ success: false, code: 'MONITOR_NOT_FOUND' });
      }
    }
    const foreign = await call('GET', `/v2/monitor/${monitor.id}`, undefined, otherKey);
    expect(foreign.status).toBe(404);
    expect((await call('DELETE', `/v2/monitor/${monitor.id}`, undefined, otherKey)).status).toBe(404);
    expect((await call('POST', `/v2/monitor/${monitor.id}/run`, {}, otherKey)).status).toBe(404);
    expect((await call('GET', `/v2/monitor`, undefined, otherKey)).json.data).toEqual([]);
    expect((await call('GET', `/v2/monitor/${monitor.id}`)).status).toBe(200);
    const badCheck = await call('GET', `/v2/monitor/${monitor.id}/checks/nope`);
    expect(badCheck.json).toMatchObject({ success: false, code: 'MONITOR_CHECK_NOT_FOUND' });
    expect((await call('GET', `/v2/monitor/${monitor.id}/checks?limit=0`)).status).toBe(400);
    expect((await call('GET', `/v2/monitor?limit=abc`)).status).toBe(400);
    expect((await call('GET', `/v2/monitor/${monitor.id}/checks/${ids[1]}?status=weird`)).status).toBe(400);
  });

  it('warns that email is not sent, and that judgeEnabled needs a goal', async () => {
    const created = await call('POST', '/v2/monitor', {
      name: 'mail',
      schedule: hourly,
      targets: [{ type: 'scrape', urls: [site.url('/price')] }],
      notification: { email: { enabled: true, recipients: ['ops@example.com'], includeDiffs: true } },
      judgeEnabled: true,
    });
    expect(created.status).toBe(200);
    expect(created.json.warning).toContain('no mail server');
    expect(created.json.data.warning).toContain('no goal');
    expect(created.json.data.notification).toEqual({
      email: { enabled: true, recipients: ['ops@example.com'], includeDiffs: true },
    });
    const bad = await call('POST', '/v2/monitor', {
      name: 'mail',
      schedule: hourly,
      targets: [{ type: 'scrape', urls: [site.url('/price')] }],
      notification: { email: { recipients: ['not an address'] } },
    });
    expect(bad.status).toBe(400);
  });
});

describe('monitor checks', () => {
  it('reports new, same, changed (with diff and judgment) and removed pages, books credits and sends webhooks', async () => {
    const monitor = await createMonitor({
      name: 'prices',
      retentionDays: 2,
      goal: 'Tell me when the price changes',
      judgeEnabled: true,
      webhook: { url: receiverUrl, metadata: { team: 'ops' } },
      targets: [{ id: 'shop', type: 'scrape', urls: [site.url('/price'), site.url('/stock')] }],
    });
    const ledger = () => tabhive.tabhive.stores.creditLedger.entriesForTeam('default', { limit: 10_000 });
    const chargedBefore = (await ledger()).reduce((sum, entry) => sum + entry.credits, 0);

    const first = await runToEnd(monitor.id);
    expect(first.status).toBe('completed');
    expect(first.trigger).toBe('manual');
    expect(first.summary).toEqual({ totalPages: 2, same: 0, changed: 0, new: 2, removed: 0, error: 0 });
    expect(first.pages.map((page: { url: string; status: string }) => [page.url, page.status])).toEqual([
      [site.url('/price'), 'new'],
      [site.url('/stock'), 'new'],
    ]);
    expect(first.targetResults[0]).toMatchObject({ targetId: 'shop', type: 'scrape' });
    expect(first.actualCredits).toBe(2);

    site.set('/price', { title: 'Price', body: 'The widget costs 12 euros.' });
    llm.answer(
      JSON.stringify({
        meaningful: true,
        confidence: 'high',
        reason: 'The price rose from 10 to 12 euros.',
        meaningfulChanges: [{ type: 'changed', before: '10 euros', after: '12 euros', reason: 'price' }],
      }),
    );
    const second = await runToEnd(monitor.id);
    expect(second.summary).toEqual({ totalPages: 2, same: 1, changed: 1, new: 0, removed: 0, error: 0 });
    const changed = second.pages.find((page: { status: string }) => page.status === 'changed');
    expect(changed.url).toBe(site.url('/price'));
    expect(changed.diff.text).toContain('-The widget costs 10 euros.');
    expect(changed.diff.text).toContain('+The widget costs 12 euros.');
    expect(changed.diff.json.files[0].chunks.length).toBeGreaterThan(0);
    expect(changed.judgment).toMatchObject({ meaningful: true, confidence: 'high' });
    expect(changed.previousScrapeId).toBe(first.pages[0].currentScrapeId);
    expect(llm.requests.at(-1)?.body.messages?.at(-1)?.content).toContain('Tell me when the price changes');

    site.set('/stock', undefined);
    const third = await runToEnd(monitor.id);
    expect(third.summary).toMatchObject({ same: 1, removed: 1, totalPages: 2 });
    expect(third.pages.find((page: { status: string }) => page.status === 'removed').statusCode).toBe(404);

    const onlyRemoved = await call('GET', `/v2/monitor/${monitor.id}/checks/${third.id}?status=removed`);
    expect(onlyRemoved.json.data.pages.map((page: { url: string }) => page.url)).toEqual([
      site.url('/stock'),
    ]);
    const firstPage = await call('GET', `/v2/monitor/${monitor.id}/checks/${third.id}?limit=1`);
    expect(firstPage.json.data.pages).toHaveLength(1);
    expect(firstPage.json.next).toContain(`/v2/monitor/${monitor.id}/checks/${third.id}?skip=1&limit=1`);
    const nextPage = await fetch(firstPage.json.next as string, {
      headers: { authorization: `Bearer ${TEST_API_KEY}` },
    });
    const rest = (await nextPage.json()) as { data: { pages: Array<{ url: string }>; next: string | null } };
    expect(rest.data.pages.map((page) => page.url)).toEqual([site.url('/stock')]);
    expect(rest.data.next).toBeNull();

    const checks = await call('GET', `/v2/monitor/${monitor.id}/checks`);
    expect(checks.json.data.map((check: { id: string }) => check.id)).toEqual([
      third.id,
      second.id,
      first.id,
    ]);
    expect((await call('GET', `/v2/monitor/${monitor.id}/checks?limit=1&offset=1`)).json.data[0].id).toBe(
      second.id,
    );
    const read = (await call('GET', `/v2/monitor/${monitor.id}`)).json.data;
    expect(read.lastCheckSummary).toEqual(third.summary);
    expect(read.currentCheckId).toBeNull();

    // Each check scraped both URLs, one credit each (the 404 too: it is an answered page).
    const charged = (await ledger()).reduce((sum, entry) => sum + entry.credits, 0) - chargedBefore;
    expect(charged).toBe(6);

    await waitUntil(
      () =>
        events.filter((event) => event.type === 'monitor.check.completed' && event.id === monitor.id)
          .length === 3,
      30_000,
      'three check events',
    );
    const pageEvents = events.filter((event) => event.type === 'monitor.page' && event.id === monitor.id);
    // new + new, then changed, then removed: never `same`.
    expect(pageEvents.map((event) => (event.data[0] as { status: string }).status).sort()).toEqual([
      'changed',
      'new',
      'new',
      'removed',
    ]);
    expect(
      (events.find((event) => event.id === monitor.id) as unknown as { metadata: unknown }).metadata,
    ).toEqual({ team: 'ops' });
    site.set('/stock', { title: 'Stock', body: 'In stock.' });

    // Past its retention (2 days here) a check and its pages are deleted; other monitors' are kept.
    const { monitorChecks } = tabhive.tabhive.stores;
    expect(await monitorChecks.purgeExpired(new Date(Date.now() + 3 * 86_400_000))).toBe(3 + 6);
    expect((await call('GET', `/v2/monitor/${monitor.id}/checks`)).json.data).toEqual([]);
  });

  it('follows the results of a search target and books the search', async () => {
    // The local search provider finds pages this team scraped: the stock page was scraped above.
    const monitor = await createMonitor({
      targets: [{ id: 'find', type: 'search', queries: ['kettles warehouse stock'], maxResults: 3 }],
    });
    site.set('/kettles', { title: 'Kettles', body: 'Kettles warehouse stock: plenty.' });
    expect((await call('POST', '/v2/scrape', { url: site.url('/kettles') })).status).toBe(200);
    const first = await runToEnd(monitor.id);
    expect(first.targetResults[0]).toMatchObject({ targetId: 'find', type: 'search', searchCompleted: true });
    expect(first.pages.map((page: { url: string }) => page.url)).toContain(site.url('/kettles'));
    expect(first.pages.every((page: { status: string }) => page.status === 'new')).toBe(true);
    expect(first.actualCredits).toBe(first.pages.length);
    site.set('/kettles', { title: 'Kettles', body: 'Kettles warehouse stock: none left.' });
    const second = await runToEnd(monitor.id);
    const kettles = second.pages.find((page: { url: string }) => page.url === site.url('/kettles'));
    expect(kettles.status).toBe('changed');
    expect(kettles.diff.text).toContain('+Kettles warehouse stock: none left.');
  });

  it('answers 409 to a run while a check of the monitor runs', async () => {
    site.set('/slow', { title: 'Slow', body: 'Slow page.' });
    const monitor = await createMonitor({ targets: [{ type: 'scrape', urls: [site.url('/slow')] }] });
    const release = site.hold('/slow');
    const run = await call('POST', `/v2/monitor/${monitor.id}/run`, {});
    expect(run.json.data).toMatchObject({ status: 'running', trigger: 'manual', monitorId: monitor.id });
    await waitUntil(() => site.hits('/slow') > 0, 10_000, 'the page to be requested');
    const again = await call('POST', `/v2/monitor/${monitor.id}/run`, {});
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ success: false, code: 'MONITOR_CHECK_RUNNING' });
    expect((await call('GET', `/v2/monitor/${monitor.id}`)).json.data.currentCheckId).toBe(run.json.data.id);
    release();
    await waitUntil(
      async () => (await call('GET', `/v2/monitor/${monitor.id}`)).json.data.currentCheckId === null,
      20_000,
      'the check to end',
    );
    expect((await call('POST', `/v2/monitor/${monitor.id}/run`, {})).status).toBe(200);
  });

  it("takes over the lease of an instance that died, and marks that instance's check failed", async () => {
    const monitor = await createMonitor({ targets: [{ type: 'scrape', urls: [site.url('/price')] }] });
    const { stores } = tabhive.tabhive;
    // A "dead instance": it took the lease for a check and stopped renewing it.
    const ghostId = '11111111-2222-4333-8444-555555555555';
    const now = new Date();
    await stores.monitorChecks.claim({
      _id: ghostId,
      monitorId: monitor.id,
      teamId: 'default',
      status: 'running',
      trigger: 'scheduled',
      scheduledFor: now,
      startedAt: now,
      summary: { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 },
      targetResults: [],
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    });
    const lease = await stores.monitors.acquireLease(monitor.id, ghostId, 1_500);
    expect('token' in lease).toBe(true);
    expect((await call('POST', `/v2/monitor/${monitor.id}/run`, {})).status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const check = await runToEnd(monitor.id);
    expect(check.status).toBe('completed');
    const ghost = await call('GET', `/v2/monitor/${monitor.id}/checks/${ghostId}`);
    expect(ghost.json.data).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('stopped before it finished'),
    });
  });

  it('pauses, resumes, reschedules and deletes', async () => {
    const monitor = await createMonitor({ targets: [{ type: 'scrape', urls: [site.url('/price')] }] });
    const paused = await call('PATCH', `/v2/monitor/${monitor.id}`, { status: 'paused' });
    expect(paused.json.data).toMatchObject({ status: 'paused', nextRunAt: null });
    const resumed = await call('PATCH', `/v2/monitor/${monitor.id}`, {
      status: 'active',
      schedule: { cron: '0 9 * * *', timezone: 'America/New_York' },
      name: 'renamed',
      retentionDays: 7,
      goal: 'prices',
      webhook: null,
    });
    expect(resumed.json.data).toMatchObject({
      status: 'active',
      name: 'renamed',
      retentionDays: 7,
      goal: 'prices',
      webhook: null,
      schedule: { cron: '0 9 * * *', timezone: 'America/New_York' },
    });
    expect(new Date(resumed.json.data.nextRunAt as string).getUTCHours()).toBeOneOf([13, 14]);
    const cleared = await call('PATCH', `/v2/monitor/${monitor.id}`, { goal: null });
    expect(cleared.json.data.goal).toBeNull();
    expect((await call('PATCH', `/v2/monitor/${monitor.id}`, { status: 'deleted' })).status).toBe(400);
    expect(
      (await call('PATCH', `/v2/monitor/${monitor.id}`, { schedule: { cron: '61 * * * *' } })).status,
    ).toBe(400);
    const list = await call('GET', '/v2/monitor?limit=100');
    expect(list.json.data.map((item: { id: string }) => item.id)).toContain(monitor.id);
    expect((await call('DELETE', `/v2/monitor/${monitor.id}`)).json).toEqual({ success: true });
    expect((await call('GET', `/v2/monitor/${monitor.id}`)).status).toBe(404);
  });
});
