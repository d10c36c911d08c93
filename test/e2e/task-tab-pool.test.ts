import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserStatus } from '../../shared/protocol/messages';
import { startFixtureSite } from '../helpers/fixture-site';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startFixtureSite();
  // Every page through the browser: these tests are about its tabs.
  tabhive = await startTestTabhive({ env: { HTTP_FAST_PATH: 'false' } });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

const status = (): BrowserStatus | undefined => tabhive.tabhive.hub.browserStatuses()[0]?.status;

/** The report the browser sent after the last scrape's task cleaned up (it sends one per task). */
let reportBefore: BrowserStatus | undefined;
async function settled(): Promise<BrowserStatus> {
  await waitUntil(
    () => status() !== reportBefore && status()?.runningTasks === 0,
    5_000,
    'the task to clean up and report',
  );
  return status() as BrowserStatus;
}

const scrape = async (body: Record<string, unknown>) => {
  reportBefore = status();
  const { status: code, json } = await tabhive.post('/v2/scrape', { maxAge: 0, ...body });
  expect(code).toBe(200);
  return json.data as { markdown: string };
};

describe('warm task tabs in a launched browser', () => {
  it('keeps a plain task’s tab and gives it to later tasks instead of opening windows', async () => {
    await scrape({ url: site.url('/field-notes.html') });
    expect((await settled()).pooledTabs).toBe(1);
    const pages = ['/product.html', '/index.html', '/field-notes.html', '/tall.html', '/product.html'];
    for (const page of pages) await scrape({ url: site.url(page) });
    // One scrape at a time. A next task may arrive while the last tab is still being reset, and
    // gets a second one; had every task opened a window of its own, the pool would hold five.
    const after = await settled();
    expect(after.pooledTabs).toBeGreaterThanOrEqual(1);
    expect(after.pooledTabs).toBeLessThanOrEqual(2);
    expect(after).toMatchObject({ runningTasks: 0, windows: 1, debuggerSessions: 0, sessionRules: 0 });
  });

  it('does not hand one task’s headers to the next task in the same tab', async () => {
    await scrape({ url: site.url('/echo?with-header'), headers: { 'X-Hive': 'pooled' } });
    await scrape({ url: site.url('/echo?without-header') });
    const hit = (query: string) => site.hits.find((request) => request.query.includes(query));
    expect(hit('with-header')?.headers['x-hive']).toBe('pooled');
    expect(hit('without-header')?.headers['x-hive']).toBeUndefined();
    expect((await settled()).sessionRules).toBe(0);
  });

  it('closes the tab of a task that emulated a phone, so the next task sees a desktop', async () => {
    await scrape({ url: site.url('/where.html') });
    const before = await settled();
    const phone = await scrape({ url: site.url('/where.html'), mobile: true });
    expect(phone.markdown).toContain('width 412');
    // The phone task took the warm tab and did not give it back.
    expect((await settled()).pooledTabs).toBe(before.pooledTabs - 1);
    const desktop = await scrape({ url: site.url('/where.html') });
    expect(desktop.markdown).toContain('width 1920');
    expect(desktop.markdown).not.toContain('Android');
  });

  it('loads a page again when the next URL differs from the tab’s page only by its fragment', async () => {
    await scrape({ url: site.url('/field-notes.html') });
    const again = await scrape({ url: site.url('/field-notes.html#later'), onlyMainContent: false });
    expect(again.markdown.length).toBeGreaterThan(100);
  });

  it('waits for a page without scripts that moves on by meta refresh', async () => {
    const moved = await scrape({ url: site.url('/meta-refresh.html'), onlyMainContent: false });
    expect(moved.markdown).toContain('refreshed-by-meta');
  });

  it('captures what a script writes after load in a reused tab', async () => {
    await scrape({ url: site.url('/index.html') });
    const rendered = await scrape({ url: site.url('/js-rendered.html'), onlyMainContent: false });
    // A fetch after load, then a 150 ms timer: the quiet wait, not the inert shortcut.
    expect(rendered.markdown).toContain('Rendered content');
    expect(rendered.markdown).not.toContain('Loading…');
  });
});
