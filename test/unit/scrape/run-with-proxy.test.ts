import { describe, expect, it } from 'vitest';
import type { BrowserClass, PageCapture } from '../../../shared/protocol/messages';
import { TaskError } from '../../../server/browsers/hub/task-error';
import { blockOf, worthAnotherBrowser } from '../../../server/scrape/capture/block-pages/capture-block';
import { runWithProxy } from '../../../server/scrape/capture/run-with-proxy';

const page = (statusCode: number, rawHtml = '<p>hi</p>'): PageCapture => ({
  url: 'https://a.test/',
  statusCode,
  rawHtml,
  renderedHtml: rawHtml,
});
const spec = { url: 'https://a.test/', waitForMs: 0 };

function setup({ basic = page(200), stealth = page(200), stealthBrowsers = 1 } = {}) {
  const ran: BrowserClass[] = [];
  const deps = {
    runTask: async (_spec: unknown, { browserClass = 'basic' }: { browserClass?: BrowserClass }) => {
      ran.push(browserClass);
      return browserClass === 'stealth' ? stealth : basic;
    },
    connectedBrowsers: (browserClass: BrowserClass) => (browserClass === 'stealth' ? stealthBrowsers : 1),
  };
  return { deps, ran };
}

describe('proxy routing', () => {
  it('runs basic and stealth on their own class', async () => {
    const { deps, ran } = setup();
    expect((await runWithProxy(deps, spec, { timeoutMs: 1_000, proxy: 'basic' })).browserClass).toBe('basic');
    expect((await runWithProxy(deps, spec, { timeoutMs: 1_000, proxy: 'stealth' })).browserClass).toBe(
      'stealth',
    );
    expect(ran).toEqual(['basic', 'stealth']);
  });

  it('fails stealth at once when no stealth browser is connected', async () => {
    const { deps, ran } = setup({ stealthBrowsers: 0 });
    await expect(runWithProxy(deps, spec, { timeoutMs: 1_000, proxy: 'stealth' })).rejects.toEqual(
      new TaskError('NO_STEALTH_BROWSER', 'No stealth browser is connected'),
    );
    expect(ran).toEqual([]);
  });

  it('auto escalates a blocked page to stealth', async () => {
    const { deps, ran } = setup({ basic: page(403), stealth: page(200) });
    const result = await runWithProxy(deps, spec, { timeoutMs: 1_000, proxy: 'auto' });
    expect(result).toMatchObject({ statusCode: 200, browserClass: 'stealth' });
    expect(ran).toEqual(['basic', 'stealth']);
  });

  it('auto keeps the plain result when nothing looks blocked, or no stealth browser is there', async () => {
    const fine = setup();
    expect(await runWithProxy(fine.deps, spec, { timeoutMs: 1_000, proxy: 'auto' })).toMatchObject({
      browserClass: 'basic',
    });
    expect(fine.ran).toEqual(['basic']);
    const alone = setup({ basic: page(429), stealthBrowsers: 0 });
    expect(await runWithProxy(alone.deps, spec, { timeoutMs: 1_000, proxy: 'auto' })).toMatchObject({
      statusCode: 429,
      browserClass: 'basic',
    });
  });

  it('auto falls back to the plain result when the stealth attempt fails', async () => {
    const { deps } = setup({ basic: page(403) });
    deps.runTask = async (_spec, { browserClass = 'basic' }) => {
      if (browserClass === 'stealth') throw new TaskError('BROWSER_LOST', 'gone');
      return page(403);
    };
    expect(await runWithProxy(deps, spec, { timeoutMs: 1_000, proxy: 'auto' })).toMatchObject({
      statusCode: 403,
      browserClass: 'basic',
    });
  });
});

describe('blocked pages', () => {
  it('sends refusal statuses and challenge pages to another browser', () => {
    for (const status of [401, 403, 429]) expect(worthAnotherBrowser(page(status))).toBe(true);
    expect(
      worthAnotherBrowser(
        page(200, '<html><head><title>Just a moment...</title><script>window._cf_chl_opt={}</script>'),
      ),
    ).toBe(true);
    expect(
      worthAnotherBrowser(page(503, '<script src="https://ct.captcha-delivery.com/c.js"></script>')),
    ).toBe(true);
  });

  it('leaves ordinary pages and errors alone', () => {
    expect(worthAnotherBrowser(page(200, '<title>Just a moment, says the blog</title>'))).toBe(false);
    expect(worthAnotherBrowser(page(404))).toBe(false);
    expect(worthAnotherBrowser(page(500))).toBe(false);
  });

  it('fails only a recognised block page, not a bare refusal status', () => {
    expect(blockOf(page(403))).toBeUndefined();
    expect(blockOf({ ...page(403), responseHeaders: { 'cf-mitigated': 'challenge' } })).toMatchObject({
      vendor: 'Cloudflare',
      kind: 'challenge',
    });
    expect(blockOf(page(429))).toMatchObject({ kind: 'rate-limit' });
    // A PDF is the site's document whatever its status.
    expect(blockOf({ ...page(429, ''), pdfBase64: 'JVBERi0=' })).toBeUndefined();
  });
});
