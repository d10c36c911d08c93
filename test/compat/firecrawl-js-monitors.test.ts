import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Firecrawl, { type CreateMonitorRequest } from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../helpers/fake-llm-server';
import { linkIn, startLoopbackSmtp } from '../helpers/loopback-smtp';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';
import { type MonitorSite, startMonitorSite } from '../integration/monitors/monitor-site';

/**
 * The official `firecrawl` npm package's monitor methods against a whole Tabhive: createMonitor,
 * listMonitors, getMonitor, updateMonitor, runMonitor, listMonitorChecks, getMonitorCheck (with
 * and without auto-pagination, with a status filter) and deleteMonitor. What is asserted is what
 * the SDK hands its caller. The fake LLM answers the JSON change tracking's extraction.
 */

let site: MonitorSite;
let llm: Awaited<ReturnType<typeof startFakeLlmServer>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let firecrawl: Firecrawl;

beforeAll(async () => {
  site = await startMonitorSite({
    '/': { title: 'Shop', body: 'Our shop.', links: ['/widget', '/gadget'] },
    '/widget': { title: 'Widget', body: 'The widget costs 10 euros.' },
    '/gadget': { title: 'Gadget', body: 'The gadget costs 20 euros.' },
  });
  llm = await startFakeLlmServer();
  tabhive = await startTestTabhive({
    browsers: 1,
    env: { MONITOR_MIN_INTERVAL_SECONDS: '1', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake' },
  });
  firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
  await llm?.close();
});

async function runToEnd(id: string) {
  const check = await firecrawl.runMonitor(id);
  expect(check).toMatchObject({ monitorId: id, status: 'running', trigger: 'manual' });
  await waitUntil(
    async () => (await firecrawl.getMonitorCheck(id, check.id)).status !== 'running',
    60_000,
    'the check to finish',
  );
  return firecrawl.getMonitorCheck(id, check.id);
}

describe('firecrawl JS SDK: monitors', () => {
  it('creates, reads, lists, updates, runs, pages through checks and deletes a monitor', async () => {
    const monitor = await firecrawl.createMonitor({
      name: 'shop watch',
      schedule: { text: 'daily at 9:00', timezone: 'Europe/Berlin' },
      targets: [
        { id: 'pages', type: 'scrape', urls: [site.url('/widget')] },
        {
          id: 'price',
          type: 'scrape',
          urls: [site.url('/gadget')],
          scrapeOptions: {
            formats: [
              'markdown',
              {
                type: 'changeTracking',
                modes: ['json'],
                schema: { type: 'object', properties: { price: { type: 'string' } } },
              },
            ],
          },
        },
        { id: 'site', type: 'crawl', url: site.url('/'), crawlOptions: { limit: 5, sitemap: 'skip' } },
      ],
      retentionDays: 14,
      goal: 'prices',
    });
    expect(monitor).toMatchObject({
      name: 'shop watch',
      status: 'active',
      schedule: { cron: '0 9 * * *', text: 'daily at 9:00', timezone: 'Europe/Berlin' },
      retentionDays: 14,
      goal: 'prices',
      judgeEnabled: false,
      currentCheckId: null,
      lastCheckSummary: null,
    });
    expect(monitor.targets.map((target) => target.id)).toEqual(['pages', 'price', 'site']);
    expect(monitor.estimatedCreditsPerMonth).toBeGreaterThan(0);
    expect(Date.parse(monitor.createdAt)).not.toBeNaN();

    expect((await firecrawl.getMonitor(monitor.id)).name).toBe('shop watch');
    const second = await firecrawl.createMonitor({
      name: 'second',
      schedule: { cron: '*/30 * * * *' },
      targets: [{ type: 'search', queries: ['widget prices'], maxResults: 3, searchWindow: '24h' }],
    });
    const all = await firecrawl.listMonitors();
    expect(all.map((item) => item.id)).toEqual(expect.arrayContaining([monitor.id, second.id]));
    const [newest] = await firecrawl.listMonitors({ limit: 1 });
    expect(newest!.id).toBe(second.id);
    const [older] = await firecrawl.listMonitors({ limit: 1, offset: 1 });
    expect(older!.id).toBe(monitor.id);

    llm.answer(JSON.stringify({ price: '20 euros' }));
    const first = await runToEnd(monitor.id);
    expect(first.status).toBe('completed');
    expect(first.summary).toEqual({ totalPages: 5, same: 0, changed: 0, new: 5, removed: 0, error: 0 });
    expect(first.targetResults?.map((result) => [result.targetId, result.type])).toEqual([
      ['pages', 'scrape'],
      ['price', 'scrape'],
      ['site', 'crawl'],
    ]);

    site.set('/gadget', { title: 'Gadget', body: 'The gadget costs 25 euros.' });
    site.set('/widget', { title: 'Widget', body: 'The widget costs 12 euros.' });
    llm.answer(JSON.stringify({ price: '25 euros' }));
    const changed = await runToEnd(monitor.id);
    // The widget and the gadget changed twice each (their scrape targets and the crawl); the start page did not.
    expect(changed.summary).toMatchObject({ totalPages: 5, changed: 4, same: 1 });
    const price = changed.pages.find((page) => page.targetId === 'price')!;
    expect(price.status).toBe('changed');
    expect(price.diff?.json).toEqual({ price: { previous: '20 euros', current: '25 euros' } });
    expect(price.snapshot?.json).toEqual({ price: '25 euros' });
    const widget = changed.pages.find((page) => page.targetId === 'pages')!;
    expect(widget.diff?.text).toContain('+The widget costs 12 euros.');
    expect(widget.previousScrapeId).toBe(
      first.pages.find((page) => page.targetId === 'pages')!.currentScrapeId,
    );

    // getMonitorCheck follows `next` by itself; without autoPaginate the caller gets the link.
    const paged = await firecrawl.getMonitorCheck(monitor.id, changed.id, { limit: 2 });
    expect(paged.pages.map((page) => page.url)).toEqual(changed.pages.map((page) => page.url));
    expect(paged.next).toBeNull();
    const firstPage = await firecrawl.getMonitorCheck(monitor.id, changed.id, {
      limit: 2,
      autoPaginate: false,
    });
    expect(firstPage.pages).toHaveLength(2);
    expect(firstPage.next).toContain('skip=2');
    const onlySame = await firecrawl.getMonitorCheck(monitor.id, changed.id, { status: 'same' });
    expect(onlySame.pages.map((page) => page.url)).toEqual([site.url('/')]);

    const checks = await firecrawl.listMonitorChecks(monitor.id);
    expect(checks.map((check) => check.id)).toEqual([changed.id, first.id]);
    expect(checks[0]).toMatchObject({ billingStatus: 'confirmed', trigger: 'manual' });
    expect((await firecrawl.listMonitorChecks(monitor.id, { limit: 1, offset: 1 }))[0]!.id).toBe(first.id);

    const paused = await firecrawl.updateMonitor(monitor.id, { status: 'paused', name: 'paused watch' });
    expect(paused).toMatchObject({ status: 'paused', name: 'paused watch', nextRunAt: null });
    const resumed = await firecrawl.updateMonitor(monitor.id, {
      status: 'active',
      schedule: { text: 'every 2 hours', timezone: 'UTC' },
      webhook: { url: 'http://127.0.0.1:9/hook', events: ['monitor.check.completed'] },
    });
    expect(resumed.schedule).toEqual({ cron: '0 */2 * * *', text: 'every 2 hours', timezone: 'UTC' });
    expect(resumed.webhook).toEqual({
      url: 'http://127.0.0.1:9/hook',
      headers: {},
      metadata: {},
      events: ['monitor.check.completed'],
    });
    expect(resumed.lastCheckSummary).toEqual(changed.summary);

    expect(await firecrawl.deleteMonitor(monitor.id)).toBe(true);
    expect(await firecrawl.deleteMonitor(second.id)).toBe(true);
    await expect(firecrawl.getMonitor(monitor.id)).rejects.toMatchObject({ status: 404 });
  });

  it('surfaces Tabhive errors as SDK errors', async () => {
    await expect(
      firecrawl.createMonitor({ name: 'bad', schedule: { cron: '* * * * * *' }, targets: [] }),
    ).rejects.toMatchObject({ status: 400 });
    const refused = await firecrawl
      .createMonitor({
        name: 'bad',
        schedule: { cron: '0 * * * *', timezone: 'Nowhere/Special' },
        targets: [{ type: 'scrape', urls: [site.url('/widget')] }],
      })
      .catch((err: unknown) => err as { status: number; details: unknown });
    expect(refused).toMatchObject({ status: 400 });
    expect(JSON.stringify((refused as { details: unknown }).details)).toContain('Unknown time zone');
    await expect(firecrawl.runMonitor('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      status: 404,
    });
    await expect(firecrawl.listMonitorChecks('nope')).rejects.toMatchObject({ status: 404 });
  });
});

describe('firecrawl JS SDK: monitor notifications that are sent', () => {
  let smtp: Awaited<ReturnType<typeof startLoopbackSmtp>>;
  let mailing: Awaited<ReturnType<typeof startTestTabhive>>;
  let client: Firecrawl;
  let slack: Server;
  const slackTexts: string[] = [];

  beforeAll(async () => {
    smtp = await startLoopbackSmtp();
    slack = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        slackTexts.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string }).text);
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => slack.listen(0, '127.0.0.1', resolve));
    // No browser needed: the monitor site's pages take the HTTP fast path.
    mailing = await startTestTabhive({
      browsers: 0,
      env: { MONITOR_MIN_INTERVAL_SECONDS: '1', SMTP_URL: smtp.url },
    });
    client = new Firecrawl({ apiKey: mailing.apiKey, apiUrl: mailing.url });
  });
  afterAll(async () => {
    await mailing?.stop();
    await smtp?.close();
    await new Promise<void>((resolve) => slack?.close(() => resolve()));
  });

  it('createMonitor() with e-mail recipients answers their opt-in state; confirmed recipients and Slack hear of changes', async () => {
    const monitor = await client.createMonitor({
      name: 'Gadget watch',
      schedule: { cron: '0 * * * *' },
      targets: [{ type: 'scrape', urls: [site.url('/gadget')] }],
      notification: {
        email: { enabled: true, recipients: ['lea@example.org'] },
        // Tabhive's Slack-compatible webhook, beside Firecrawl's e-mail settings.
        slack: { webhookUrl: `http://127.0.0.1:${(slack.address() as AddressInfo).port}/hook` },
      } as CreateMonitorRequest['notification'],
    });
    expect(monitor.emailRecipientSubscriptions).toEqual([
      { email: 'lea@example.org', status: 'pending', source: 'opt_in', confirmationEmailSent: true },
    ]);
    await waitUntil(() => smtp.to('lea@example.org').length === 1, 15_000, 'the opt-in mail');
    const confirm = linkIn(smtp.to('lea@example.org')[0]!, '/v2/notifications/email/confirm');
    expect((await fetch(confirm!, { method: 'POST' })).status).toBe(200);
    expect((await client.getMonitor(monitor.id)).emailRecipientSubscriptions?.[0]?.status).toBe('confirmed');

    const check = await client.runMonitor(monitor.id);
    await waitUntil(
      async () => (await client.getMonitorCheck(monitor.id, check.id)).status !== 'running',
      30_000,
      'the check to finish',
    );
    await waitUntil(
      () => smtp.to('lea@example.org').length === 2 && slackTexts.length === 1,
      15_000,
      'the change mail and the Slack message',
    );
    expect(smtp.to('lea@example.org')[1]?.subject).toBe('Monitor "Gadget watch": 1 new');
    expect(slackTexts).toEqual(['Monitor "Gadget watch": 1 new (1 page(s) checked)']);
    expect(await client.deleteMonitor(monitor.id)).toBe(true);
  });
});
