import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../../console/build-console.mjs';
import { startCrawlSite } from '../helpers/crawl-site';
import { addOtherTeam, startTestTabhive, TEST_API_KEY, waitUntil } from '../helpers/start-test-tabhive';

/**
 * The operator console (`/console`) in a real Chromium against a whole Tabhive with a real
 * browser: sign-in, a crawl's live progress, a failed page and its error, the playground and its
 * code run as copied, and a team key that sees nothing of another team's.
 */

const CHROMIUM_PATH = '/usr/lib/chromium/chromium';
const ADMIN_API_KEY = 'admin-7e57-console-0000000000000001';
const PYTHON = path.join(homedir(), '.cache/tabhive/venv/bin/python');
const run = promisify(execFile);

/** README screenshots: into docs/images with UPDATE_SCREENSHOTS=1, otherwise a temporary folder. */
const screenshotPath = (name: string) =>
  process.env.UPDATE_SCREENSHOTS === '1'
    ? path.join('docs', 'images', name)
    : path.join(tmpdir(), 'tabhive-screenshots', name);

let site: Awaited<ReturnType<typeof startCrawlSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let otherTeamKey: string;
let browser: Browser;
let crawlId = '';

beforeAll(async () => {
  await buildConsole();
  await mkdir(path.dirname(screenshotPath('x.png')), { recursive: true });
  // Slow pages keep the crawl running while the page watches it.
  site = await startCrawlSite({ slowMs: 400, slowPages: 6 });
  tabhive = await startTestTabhive({ env: { ADMIN_API_KEY } });
  otherTeamKey = await addOtherTeam(tabhive);
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
});

afterAll(async () => {
  await browser?.close();
  await tabhive?.stop();
  await site?.close();
});

async function openConsole(
  {
    key,
    width = 1280,
    height = 860,
    timezoneId,
  }: { key: string; width?: number; height?: number; timezoneId?: string },
  hash = '',
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({
    viewport: { width, height },
    ...(timezoneId === undefined ? {} : { timezoneId }),
  });
  const page = await context.newPage();
  await page.goto(`${tabhive.url}/console`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('who').waitFor();
  if (hash !== '') await page.evaluate((fragment) => (location.hash = fragment), hash);
  return { page, context };
}

/** Waits for the console to show something: its views refresh every few seconds. */
const poll = <T>(read: () => T | Promise<T>, timeout = 20_000) =>
  expect.poll(read, { timeout, interval: 100 });

/** An overview tile's value by its exact name. */
const tile = (page: Page, name: string) =>
  page
    .locator('.tile')
    .filter({ has: page.locator('dt').getByText(name, { exact: true }) })
    .locator('dd');

const consoleApi = async (key: string, pathname: string, method = 'GET') => {
  const response = await fetch(`${tabhive.url}/console/api${pathname}`, {
    method,
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
};

describe('console', () => {
  it('serves the page under a strict CSP with no inline code, and refuses a wrong key', async () => {
    const response = await fetch(`${tabhive.url}/console`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(await response.text()).toContain('/console/assets/console.js');

    const context = await browser.newContext();
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${tabhive.url}/console`);
    await page.getByLabel('API key').fill('fc-not-a-key-00000000000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('alert').first().textContent()).toContain('not valid');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    await page.getByLabel('API key').fill(TEST_API_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByTestId('who').textContent()).toBe('Team Default team');
    // The key is kept in this tab's session storage, never in the address.
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([TEST_API_KEY]);
    expect(page.url()).not.toContain(TEST_API_KEY);
    expect(violations).toEqual([]);
    await context.close();
  });

  it("shows a crawl started from the console moving to 100 % through the job's status socket", async () => {
    const { page, context } = await openConsole({ key: TEST_API_KEY }, '#/jobs');
    const sockets: string[] = [];
    const frames: string[] = [];
    page.on('websocket', (socket) => {
      sockets.push(new URL(socket.url()).pathname);
      socket.on('framereceived', (frame) => frames.push(String(frame.payload)));
    });
    await page.getByLabel('Start URL').fill(site.url('/slow/'));
    await page.getByLabel('Page limit').fill('7');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await page.waitForURL(/#\/jobs\/[0-9a-f-]{36}$/);
    crawlId = decodeURIComponent(page.url().split('/').pop() ?? '');

    const bar = page.getByRole('progressbar', { name: 'Job progress' });
    const seen = new Set<string>();
    await waitUntil(
      async () => {
        seen.add((await bar.getAttribute('data-percent')) ?? '');
        return seen.has('100');
      },
      30_000,
      'the progress bar to reach 100 %',
    );
    expect([...seen].some((percent) => Number(percent) < 100)).toBe(true);
    await poll(() => page.getByTestId('job-status').textContent()).toBe('completed');
    expect(sockets).toContain(`/v2/crawl/${crawlId}`);
    expect(
      frames.some((frame) => frame.includes('"type":"document"') || frame.includes('"type":"catchup"')),
    ).toBe(true);
    await poll(() => page.locator('tr[data-state="done"]').count()).toBe(7);
    expect(await page.getByText('7 done, 0 failed of 7').count()).toBe(1);

    // A page's result, rendered from its Markdown.
    await page.getByRole('button', { name: `Open the result of ${site.url('/slow/1.html')}` }).click();
    await poll(() => page.locator('.panel-rendered').textContent()).toContain('Content of Slow /slow/1.html');
    await page.getByRole('tab', { name: 'Markdown' }).click();
    expect(await page.locator('.panel-markdown').textContent()).toContain('# Slow /slow/1.html');
    await page.screenshot({ path: screenshotPath('console-crawl.png'), fullPage: false });

    // The results as JSONL, one document per page.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download results (JSONL)' }).click();
    const saved = path.join(tmpdir(), `console-${crawlId}.jsonl`);
    await (await download).saveAs(saved);
    const { stdout } = await run('cat', [saved]);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { metadata: { sourceURL: string } });
    expect(lines.map((line) => line.metadata.sourceURL).sort()).toContain(site.url('/slow/1.html'));
    expect(lines).toHaveLength(7);
    await rm(saved, { force: true });

    // The jobs list shows it done too.
    await page.evaluate(() => (location.hash = '#/jobs'));
    const row = page.locator(`tr[data-job-id="${crawlId}"]`);
    await poll(() => row.getByRole('progressbar').getAttribute('data-percent')).toBe('100');
    await page.screenshot({ path: screenshotPath('console-jobs.png') });
    await context.close();
  });

  it('shows a failed page of a batch with its error', async () => {
    const started = await tabhive.post('/v2/batch/scrape', {
      urls: [site.url('/about.html'), 'http://127.0.0.1:9/refused.html'],
      formats: ['markdown'],
    });
    expect(started.status).toBe(200);
    const { page, context } = await openConsole({ key: TEST_API_KEY }, `#/jobs/${started.json.id}`);
    await poll(() => page.getByTestId('job-status').textContent(), 45_000).toBe('completed');
    const failedRow = page.locator('tr[data-state="failed"]');
    await poll(() => failedRow.count()).toBe(1);
    expect(await failedRow.getAttribute('data-page-url')).toBe('http://127.0.0.1:9/refused.html');
    const error = page.locator('[data-error-url="http://127.0.0.1:9/refused.html"]');
    await poll(() => error.count()).toBe(1);
    expect((await error.textContent())?.length ?? 0).toBeGreaterThan(
      'http://127.0.0.1:9/refused.html: '.length,
    );
    expect(await page.getByText('1 done, 1 failed of 2').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('console-failed-page.png') });
    await context.close();
  });

  it('counts only the attempts that ran, and brings an opened result into view', async () => {
    // One page at a time: every other page of the batch is claimed and put back while it waits.
    const urls = [
      ...Array.from({ length: 4 }, (_, i) => site.url(`/slow/${i + 1}.html`)),
      ...Array.from({ length: 20 }, (_, i) => site.url(`/docs/page-${i + 21}.html`)),
    ];
    const started = await tabhive.post('/v2/batch/scrape', {
      urls,
      formats: ['markdown'],
      maxConcurrency: 1,
    });
    expect(started.status).toBe(200);
    const { page, context } = await openConsole(
      { key: TEST_API_KEY, height: 600 },
      `#/jobs/${started.json.id}`,
    );
    await poll(() => page.getByTestId('job-status').textContent(), 60_000).toBe('completed');
    const done = page.locator('tr[data-state="done"]');
    await poll(() => done.count()).toBe(urls.length);
    expect(await done.locator('td.attempts').allTextContents()).toEqual(urls.map(() => '1'));

    // The first page's result opens below 24 rows: it is scrolled into view and focused.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: `Open the result of ${urls[0]}` }).click();
    const heading = page.locator('#page-result-title');
    await poll(() =>
      heading.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      }),
    ).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('page-result-title');
    await poll(() => page.locator('.panel-rendered').textContent()).toContain('Content of Slow /slow/1.html');
    await context.close();
  });

  it('scrapes in the playground and gives curl, JavaScript and Python code that run as copied', async () => {
    const { page, context } = await openConsole({ key: TEST_API_KEY }, '#/playground');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: tabhive.url });
    // A scrape the API refuses: its error is shown as the result, where the result would be.
    await page.getByLabel('URL', { exact: true }).fill('ftp://example.com/file');
    await page.getByRole('button', { name: 'Scrape', exact: true }).click();
    const resultPane = page.getByTestId('playground-result');
    await poll(() => resultPane.getByRole('alert').textContent()).toMatch(/^The scrape failed: \S/);
    expect(await resultPane.textContent()).not.toContain('The result shows here.');
    expect(await page.locator('form.scrape-form [role="alert"]').count()).toBe(0);

    await page.getByLabel('URL', { exact: true }).fill(site.url('/about.html'));
    await page.getByRole('checkbox', { name: 'links' }).check();
    // The page's only link is in its <nav>, which the main content leaves out.
    await page.getByRole('checkbox', { name: 'Main content only' }).uncheck();
    // The options are generated from /v2/scrape's schema in /openapi.json, bounds and help included.
    const waitFor = page.getByLabel('Wait after load (ms)');
    expect(await waitFor.getAttribute('max')).toBe('60000');
    expect(await page.locator('#option-waitFor-help').textContent()).toContain('From 0 to 60000.');
    await waitFor.fill('100');
    // The long tail sits behind a disclosure; a JSON option that does not parse says so and blocks the scrape.
    await page.getByText(/^Advanced options/).click();
    expect(await page.getByLabel('Proxy', { exact: true }).locator('option').allTextContents()).toContain(
      'stealth',
    );
    const headers = page.getByLabel('Headers', { exact: true });
    await headers.fill('{ "X-Test": ');
    await poll(() => page.locator('#option-headers-problem').textContent()).toMatch(/^Not valid JSON/);
    expect(await headers.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('button', { name: 'Scrape', exact: true }).isDisabled()).toBe(true);
    await headers.fill('');
    await page.getByText(/^Advanced options/).click(); // closed again, for the README's screenshot
    await page.getByRole('button', { name: 'Scrape', exact: true }).click();
    await poll(() => page.locator('.panel-rendered').textContent(), 30_000).toContain(
      'Content of /about.html',
    );
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath('console-playground.png') });

    const copied = async (language: string, name: string) => {
      await page.getByLabel('Language').selectOption(language);
      await page.getByRole('button', { name: `Copy as ${name}` }).click();
      await poll(() => page.getByText(`Copied the ${name} code.`).count()).toBe(1);
      return page.evaluate(() => navigator.clipboard.readText());
    };

    const curl = await copied('curl', 'curl');
    // Exactly what was chosen: the defaults stay on the server.
    const curlBody = /-d '(.*)'$/s.exec(curl)?.[1]?.replace(/'\\''/g, "'");
    expect(JSON.parse(curlBody ?? '')).toEqual({
      url: site.url('/about.html'),
      formats: ['markdown', 'links'],
      onlyMainContent: false,
      waitFor: 100,
    });
    const fromCurl = JSON.parse((await run('bash', ['-c', curl])).stdout) as {
      success: boolean;
      data: { markdown: string; links: string[] };
    };
    expect(fromCurl.success).toBe(true);
    expect(fromCurl.data.markdown).toContain('Content of /about.html');
    expect(fromCurl.data.links).toContain(site.url('/'));

    // Inside the repository, so that `import 'firecrawl'` finds node_modules.
    const script = path.resolve('.output', `console-snippet-${process.pid}.mjs`);
    await writeFile(script, await copied('javascript', 'JavaScript SDK'));
    try {
      const fromJs = JSON.parse((await run(process.execPath, [script])).stdout) as {
        markdown: string;
        links: string[];
      };
      expect(fromJs.markdown).toContain('Content of /about.html');
      expect(fromJs.links).toContain(site.url('/'));
    } finally {
      await rm(script, { force: true });
    }

    const python = await copied('python', 'Python SDK');
    const fromPython = JSON.parse((await run(PYTHON, ['-c', python])).stdout) as {
      markdown: string;
      links: string[];
    };
    expect(fromPython.markdown).toContain('Content of /about.html');
    expect(fromPython.links).toContain(site.url('/'));
    await context.close();

    // At phone width the form, its advanced options and the code fit the screen.
    const phone = await openConsole({ key: TEST_API_KEY, width: 390, height: 800 }, '#/playground');
    await phone.page.getByText(/^Advanced options/).click();
    await poll(() => phone.page.getByLabel('Headers', { exact: true }).count()).toBe(1);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.context.close();
  });

  it("does not show a team key another team's jobs, in the console or its endpoints", async () => {
    expect(crawlId).not.toBe('');
    const { page, context } = await openConsole({ key: otherTeamKey }, '#/jobs');
    await poll(() => page.getByText('No jobs yet.').count()).toBe(1);
    expect(await page.locator(`tr[data-job-id]`).count()).toBe(0);
    await page.evaluate((id) => (location.hash = `#/jobs/${id}`), crawlId);
    await poll(() => page.getByRole('alert').first().textContent()).toBe('Job not found');
    await context.close();

    for (const [pathname, method] of [
      [`/jobs/${crawlId}`, 'GET'],
      [`/jobs/${crawlId}/results.jsonl`, 'GET'],
      [`/jobs/${crawlId}/document?url=${encodeURIComponent(site.url('/slow/1.html'))}`, 'GET'],
      [`/jobs/${crawlId}/cancel`, 'POST'],
    ] as const) {
      expect((await consoleApi(otherTeamKey, pathname, method)).status, pathname).toBe(404);
    }
    const listed = await consoleApi(otherTeamKey, '/jobs?team=default');
    expect(listed).toEqual({ status: 200, body: { success: true, data: [] } });
    expect((await consoleApi('fc-unknown-key-000000000000000000', '/jobs')).status).toBe(401);

    // The team's own key and the admin key see the job; only the admin sees whose it is.
    const own = (await consoleApi(TEST_API_KEY, '/jobs')).body as { data: Array<{ id: string }> };
    expect(own.data.map((job) => job.id)).toContain(crawlId);
    const all = (await consoleApi(ADMIN_API_KEY, '/jobs')).body as {
      data: Array<{ id: string; teamId: string }>;
    };
    expect(all.data.find((job) => job.id === crawlId)?.teamId).toBe('default');
  });

  it("gives a team key the overview of its own team's pages and cache, and none of another team's", async () => {
    const own = await openConsole({ key: TEST_API_KEY });
    await poll(() => tile(own.page, 'Pages scraped').textContent()).not.toBe('0');
    expect(await tile(own.page, 'Cache hit ratio').count()).toBe(1);
    await poll(() => tile(own.page, 'Pages per second').textContent()).not.toBe('…');
    await poll(() => own.page.locator('.tile svg.sparkline').count()).toBe(5);
    // The hub's queue holds every team's browser tasks: the admin's alone.
    expect(await tile(own.page, 'Browser tasks waiting').count()).toBe(0);
    await own.context.close();

    // Another team, which scraped nothing: none of the default team's pages or lookups.
    const other = await openConsole({ key: otherTeamKey });
    await poll(() => tile(other.page, 'Pages scraped').textContent()).toBe('0');
    expect(await tile(other.page, 'Cache hit ratio').textContent()).toBe('no lookups yet');
    await other.context.close();
  });

  it('shows the admin the overview, the browsers and usage, and fits a phone screen', async () => {
    const { page, context } = await openConsole({ key: ADMIN_API_KEY });
    await poll(() => page.getByTestId('who').textContent()).toBe('Admin (every team)');
    await poll(() => tile(page, 'Pages scraped').textContent()).not.toBe('0');
    expect(await tile(page, 'Browsers').textContent()).toBe('1');
    expect(await tile(page, 'Failed pages, last hour').textContent()).toBe('1');
    await poll(() => tile(page, 'Pages per second').textContent()).not.toBe('…');
    // Each moving figure has a line of its last hour, from the server's samples.
    const lines = page.locator('.tile svg.sparkline');
    await poll(() => lines.count()).toBe(5);
    await poll(() => page.locator('.tile svg.sparkline[data-points="0"]').count()).toBeLessThan(5);
    expect(await lines.first().getAttribute('aria-label')).toMatch(/^Pages per second/);
    expect(await tile(page, 'Credits, last hour').textContent()).toMatch(/^\d+/);
    await page.screenshot({ path: screenshotPath('console-overview.png') });

    await page.evaluate(() => (location.hash = '#/browsers'));
    await poll(() => page.locator('[aria-labelledby="connected-browsers"] tbody tr').count()).toBe(1);
    const browserRow = page.locator('[aria-labelledby="connected-browsers"] tbody tr');
    expect(await browserRow.textContent()).toContain('launched');

    // Its details: the extension's version, a slow task while it runs (query left out), and the
    // batch's refused page among its recent failures.
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    await browserRow.locator('summary').click();
    expect(await browserRow.getByTestId('browser-version').textContent()).toBe(version);
    const refused = browserRow.locator('[data-failure-url="http://127.0.0.1:9/refused.html"]');
    await poll(() => refused.count()).toBeGreaterThan(0);
    expect(await refused.first().textContent()).toMatch(/[A-Z_]+: \S/);
    const slowUrl = site.url('/slow/2.html');
    // Running long enough for the browsers view (which reloads every 3 s) to show it; awaited at
    // the end of the test, so that the usage and phone checks run while it finishes.
    const slowScrape = tabhive.post('/v2/scrape', {
      url: `${slowUrl}?secret=console-details`,
      formats: ['markdown'],
      waitFor: 6_000,
    });
    type BrowserRows = { data: Array<{ runningTasks: Array<{ url: string }> | null; tabsInUse: number }> };
    const running = async (key: string) => (await consoleApi(key, '/browsers')).body as BrowserRows;
    await poll(async () =>
      (await running(ADMIN_API_KEY)).data[0]?.runningTasks?.map((task) => task.url),
    ).toEqual([slowUrl]);
    // Another team's key sees that the pool's browser is busy, never with what.
    const forOtherTeam = await running(otherTeamKey);
    expect(forOtherTeam.data[0]).toMatchObject({ runningTasks: null, recentFailures: null, tabsInUse: 1 });
    expect(JSON.stringify(forOtherTeam)).not.toContain('/slow/2.html');
    expect(JSON.stringify(forOtherTeam)).not.toContain('refused.html');
    expect(JSON.stringify(await running(ADMIN_API_KEY))).not.toContain('secret=console-details');
    await poll(() => browserRow.locator(`[data-task-url="${slowUrl}"]`).count()).toBe(1);
    await page.screenshot({ path: screenshotPath('console-browsers.png') });

    await page.evaluate(() => (location.hash = '#/usage'));
    await poll(() => page.getByRole('img', { name: /Credits by day/ }).count()).toBe(1);
    const byTeam = page.locator('[aria-labelledby="usage-credits-by-team"] tbody');
    await poll(() => byTeam.textContent()).toContain('default');
    // The default team's key (API_KEY) was used by every test above: its last use is listed.
    const keyRow = page
      .locator('[aria-labelledby="usage-api-keys"] tbody tr')
      .filter({ has: page.locator('td').getByText('API_KEY', { exact: true }) });
    // Moments in the viewer's local time with its zone; key hints as start…end, one ellipsis.
    await poll(() => keyRow.locator('td').last().textContent()).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \S+$/,
    );
    expect(await keyRow.locator('code').textContent()).toBe('fc-7…');
    expect(
      await page.locator('[aria-labelledby="usage-credits-by-api-key"] tbody code').allTextContents(),
    ).toContain('fc-…0001');
    await page.screenshot({ path: screenshotPath('console-usage.png') });
    await context.close();

    const phone = await openConsole({ key: TEST_API_KEY, width: 390, height: 800 }, '#/jobs');
    await poll(() => phone.page.locator(`tr[data-job-id="${crawlId}"]`).count()).toBe(1);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.context.close();
    expect((await slowScrape).json.data.markdown).toContain('Slow /slow/2.html');
  });

  it("lists the team's monitors beside its jobs", async () => {
    const created = await tabhive.post('/v2/monitor', {
      name: 'console monitor',
      // New Year only: the check never runs while the test does.
      schedule: { cron: '0 0 0 1 1 *', timezone: 'UTC' },
      targets: [{ type: 'scrape', urls: [site.url('/about.html')] }],
    });
    expect(created.status).toBe(200);
    const { page, context } = await openConsole({ key: TEST_API_KEY, timezoneId: 'Europe/Berlin' }, '#/jobs');
    const monitors = page.getByRole('region', { name: 'Monitors (1)' });
    await poll(() => monitors.locator('tbody tr').count()).toBe(1);
    const cells = await monitors.locator('tbody td').allTextContents();
    expect(cells.slice(0, 3)).toEqual(['console monitor', created.json.data.status, '0 0 0 1 1 * (UTC)']);
    // Midnight UTC in the viewer's zone, which it names.
    expect(cells[4]).toMatch(/^\d{4}-01-01 01:00:00 (CET|GMT\+1)$/);
    await context.close();
  });
});
