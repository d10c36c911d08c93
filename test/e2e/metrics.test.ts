import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site';
import { hasSample, parsePrometheusText, sampleSum, type Sample } from '../helpers/prometheus-text';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startFixtureSite();
  tabhive = await startTestTabhive({ env: { METRICS_TOKEN } });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

async function metrics(): Promise<Sample[]> {
  const response = await fetch(`${tabhive.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status).toBe(200);
  return parsePrometheusText(await response.text());
}

describe('GET /metrics', () => {
  it('answers in the Prometheus text format, only with METRICS_TOKEN when it is set', async () => {
    const missing = await fetch(`${tabhive.url}/metrics`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ success: false });
    const wrong = await fetch(`${tabhive.url}/metrics`, {
      headers: { authorization: 'Bearer not-the-token' },
    });
    expect(wrong.status).toBe(401);
    // The API key is not the metrics token.
    const apiKey = await fetch(`${tabhive.url}/metrics`, {
      headers: { authorization: `Bearer ${tabhive.apiKey}` },
    });
    expect(apiKey.status).toBe(401);

    const response = await fetch(`${tabhive.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('# TYPE tabhive_pages_scraped_total counter');
    expect(text).toContain('# TYPE tabhive_browser_task_duration_seconds histogram');
    const samples = parsePrometheusText(text);
    // Process metrics from prom-client's default collectors.
    expect(sampleSum(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(hasSample(samples, 'nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it("shows the instance's browser, its tabs and an empty queue", async () => {
    const samples = await metrics();
    const pool = { class: 'basic', team: 'pool' };
    expect(sampleSum(samples, 'tabhive_browsers', pool)).toBe(1);
    expect(sampleSum(samples, 'tabhive_browser_slots', pool)).toBe(
      tabhive.tabhive.hub.connectedBrowsers() * 4,
    );
    expect(sampleSum(samples, 'tabhive_browser_slots_free', pool)).toBe(4);
    expect(hasSample(samples, 'tabhive_browsers', { class: 'stealth' })).toBe(false);
    expect(sampleSum(samples, 'tabhive_hub_queued_tasks', { priority: 'interactive' })).toBe(0);
    expect(sampleSum(samples, 'tabhive_hub_queued_tasks', { priority: 'background' })).toBe(0);
  });

  it('counts a scraped page, its cache miss and then its cache hit', async () => {
    const before = await metrics();
    const url = site.url('/docs/getting-started.html?metrics=cache');
    const first = await tabhive.post('/v2/scrape', { url });
    expect(first.json.data.metadata.cacheState).toBe('miss');
    const second = await tabhive.post('/v2/scrape', { url });
    expect(second.json.data.metadata.cacheState).toBe('hit');
    const after = await metrics();

    const moved = (name: string, labels: Record<string, string> = {}) =>
      sampleSum(after, name, labels) - sampleSum(before, name, labels);
    expect(moved('tabhive_cache_lookups_total', { result: 'miss' })).toBe(1);
    expect(moved('tabhive_cache_lookups_total', { result: 'hit' })).toBe(1);
    expect(moved('tabhive_pages_scraped_total', { source: 'scrape' })).toBe(2);
    expect(moved('tabhive_pages_scraped_total', { source: 'scrape', engine: 'cache' })).toBe(1);
    // The first one was fetched over HTTP or in the browser, whichever the page called for.
    expect(
      moved('tabhive_pages_scraped_total', { source: 'scrape', engine: 'http' }) +
        moved('tabhive_pages_scraped_total', { source: 'scrape', engine: 'browser' }),
    ).toBe(1);
    expect(moved('tabhive_scrape_duration_seconds_count', { source: 'scrape', outcome: 'ok' })).toBe(2);
    // The cache was read and written through the store, and each operation timed.
    expect(
      moved('tabhive_store_operation_duration_seconds_count', { collection: 'cache_entries' }),
    ).toBeGreaterThan(0);
  });

  it('times a browser task and counts its page as the browser’s', async () => {
    const before = await metrics();
    // A screenshot needs the browser; maxAge 0 leaves the cache out.
    const scraped = await tabhive.post('/v2/scrape', {
      url: site.url('/index.html?metrics=browser'),
      formats: ['screenshot'],
      maxAge: 0,
    });
    expect(scraped.status).toBe(200);
    const after = await metrics();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sampleSum(after, name, labels) - sampleSum(before, name, labels);
    expect(moved('tabhive_browser_task_duration_seconds_count', { class: 'basic', outcome: 'ok' })).toBe(1);
    expect(
      moved('tabhive_browser_task_duration_seconds_sum', { class: 'basic', outcome: 'ok' }),
    ).toBeGreaterThan(0);
    expect(moved('tabhive_pages_scraped_total', { source: 'scrape', engine: 'browser' })).toBe(1);
    expect(moved('tabhive_cache_lookups_total')).toBe(0);
  });

  it("counts a batch's pages as job pages and its tasks by state in the store", async () => {
    const before = await metrics();
    const started = await tabhive.post('/v2/batch/scrape', {
      urls: [site.url('/index.html?metrics=batch-1'), site.url('/product.html?metrics=batch-2')],
    });
    expect(started.status).toBe(200);
    await waitUntil(
      async () => (await tabhive.get(`/v2/batch/scrape/${started.json.id}`)).json.status === 'completed',
      30_000,
      'the batch to complete',
    );
    // The store's counts are cached for a few seconds: wait for a reading taken after the batch.
    let after: Sample[] = [];
    await waitUntil(
      async () => {
        after = await metrics();
        return sampleSum(after, 'tabhive_page_tasks', { state: 'done' }) >= 2;
      },
      20_000,
      'the page task gauge to count the batch',
    );
    expect(sampleSum(after, 'tabhive_page_tasks', { state: 'queued' })).toBe(0);
    expect(sampleSum(after, 'tabhive_page_tasks', { state: 'leased' })).toBe(0);
    expect(sampleSum(after, 'tabhive_page_tasks', { state: 'failed' })).toBe(0);
    expect(hasSample(after, 'tabhive_webhook_deliveries_pending')).toBe(true);
    expect(sampleSum(after, 'tabhive_webhook_deliveries_pending')).toBe(0);
    expect(
      sampleSum(after, 'tabhive_pages_scraped_total', { source: 'job' }) -
        sampleSum(before, 'tabhive_pages_scraped_total', { source: 'job' }),
    ).toBe(2);
    expect(
      sampleSum(after, 'tabhive_store_operation_duration_seconds_count', {
        collection: 'page_tasks',
        operation: 'findOneAndUpdate',
      }),
    ).toBeGreaterThan(0);
  });
});

describe('GET /ready', () => {
  it('is ready with a store that answers and a browser connected, without auth', async () => {
    const response = await fetch(`${tabhive.url}/ready`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ready: true, store: 'ok', browsers: 1 });
  });

  it('leaves /health as it was', async () => {
    const response = await fetch(`${tabhive.url}/health`);
    expect(await response.json()).toEqual({ ok: true, browsers: 1, store: 'embedded' });
  });
});
