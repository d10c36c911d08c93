import { describe, expect, it } from 'vitest';
import { useSiteAndTabhive } from '../helpers/use-site-and-tabhive';
import { dataUrlBytes, pngSize } from '../helpers/data-url';
import { waitUntil } from '../helpers/start-test-tabhive';

const env = useSiteAndTabhive();

describe('actions', () => {
  it('clicks a search box, writes, presses Enter and waits for the results page', async () => {
    const { status, json } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/search-form.html'),
      formats: ['markdown'],
      actions: [
        { type: 'click', selector: '#q' },
        { type: 'write', text: 'royal jelly' },
        { type: 'press', key: 'Enter' },
        { type: 'wait', selector: '#results' },
        { type: 'scrape' },
      ],
    });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('Result for royal jelly');
    expect(json.data.metadata.url).toBe(env.site.url('/search?q=royal+jelly'));
    expect(json.data.actions.scrapes).toEqual([
      { url: env.site.url('/search?q=royal+jelly'), html: expect.stringContaining('Result for royal jelly') },
    ]);
    expect(json.data.actions).toMatchObject({ screenshots: [], javascriptReturns: [], pdfs: [] });
  });

  it('clicks the first match, or every match with all', async () => {
    const count = async (all: boolean) => {
      const { json } = await env.tabhive.post('/v2/scrape', {
        url: env.site.url('/buttons.html'),
        actions: [
          { type: 'click', selector: '.bee', all },
          {
            type: 'executeJavascript',
            script: "return Number(document.getElementById('count').textContent)",
          },
        ],
      });
      return json.data.actions.javascriptReturns[0];
    };
    expect(await count(false)).toEqual({ type: 'number', value: 1 });
    expect(await count(true)).toEqual({ type: 'number', value: 3 });
  });

  it('scrolls an infinite list until more items load', async () => {
    const { json } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/infinite-scroll.html'),
      actions: [
        { type: 'scroll', direction: 'down' },
        { type: 'wait', selector: '#item-20' },
        { type: 'scroll' },
        { type: 'wait', selector: '#item-30' },
      ],
    });
    expect(json.data.markdown).toContain('Cell 30');
  });

  it('returns what scripts return, as expressions or function bodies, awaiting promises', async () => {
    const { json } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/'),
      actions: [
        { type: 'executeJavascript', script: 'document.title' },
        { type: 'executeJavascript', script: 'return { bees: 3, names: ["queen"] }' },
        { type: 'executeJavascript', script: 'await new Promise((r) => setTimeout(r, 50)); return 42' },
        { type: 'executeJavascript', script: 'void 0' },
      ],
    });
    expect(json.data.actions.javascriptReturns).toEqual([
      { type: 'string', value: 'Hive Fixtures' },
      { type: 'object', value: { bees: 3, names: ['queen'] } },
      { type: 'number', value: 42 },
      { type: 'undefined', value: null },
    ]);
  });

  it('runs scripts on a page whose CSP forbids eval, in a world the page cannot see into', async () => {
    const { status, json } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/csp.html'),
      actions: [
        {
          type: 'executeJavascript',
          script:
            "return [document.getElementById('heading').textContent, eval('1 + 1'), typeof window.__pageSecret]",
        },
      ],
    });
    expect(status).toBe(200);
    expect(json.data.actions.javascriptReturns).toEqual([
      { type: 'object', value: ['Strict page', 2, 'undefined'] },
    ]);
  });

  it('answers SCRAPE_ACTION_ERROR naming the action that failed, and leaves nothing behind', async () => {
    const { status, json } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/'),
      actions: [
        { type: 'wait', milliseconds: 10 },
        { type: 'executeJavascript', script: 'return missingHoney.count' },
      ],
    });
    expect(status).toBe(500);
    expect(json).toMatchObject({ success: false, code: 'SCRAPE_ACTION_ERROR' });
    expect(json.error).toMatch(
      /^Action\(s\) failed to complete\. Error code: actions\[1\] \(executeJavascript\) failed: ReferenceError: missingHoney is not defined/,
    );

    const missing = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/'),
      actions: [{ type: 'click', selector: '#no-such-button' }],
    });
    expect(missing.json.error).toContain('actions[0] (click) failed: no element matches #no-such-button');

    // The browser reports its state after every task: back to the launch window alone.
    await waitUntil(
      () => {
        const status = env.tabhive.tabhive.hub.browserStatuses()[0]?.status;
        return status !== undefined && status.runningTasks === 0 && status.windows === 1;
      },
      5_000,
      'the task windows to close',
    );
    expect(env.tabhive.tabhive.hub.browserStatuses()[0]?.status).toEqual({
      runningTasks: 0,
      windows: 1,
      debuggerSessions: 0,
      sessionRules: 0,
      // Tasks with actions never go back to the pool; earlier tasks of this file may have.
      pooledTabs: expect.any(Number),
    });
  });

  it('cleans up after a task that ran out of time in the middle of its actions', async () => {
    const { status } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/'),
      timeout: 2_000,
      actions: [{ type: 'wait', selector: '#never-appears' }],
    });
    expect(status).toBe(408);
    await waitUntil(
      () => {
        const state = env.tabhive.tabhive.hub.browserStatuses()[0]?.status;
        return state?.runningTasks === 0 && state.windows === 1;
      },
      5_000,
      'the timed-out task to clean up',
    );
    expect(env.tabhive.tabhive.hub.browserStatuses()[0]?.status).toMatchObject({
      debuggerSessions: 0,
      sessionRules: 0,
    });
  });

  it('takes viewport, sized and full-page screenshots, and the screenshot format', async () => {
    const { json } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/tall.html'),
      formats: ['markdown', { type: 'screenshot', fullPage: true }],
      actions: [
        { type: 'executeJavascript', script: 'return [innerWidth, innerHeight]' },
        { type: 'screenshot' },
        { type: 'screenshot', viewport: { width: 800, height: 600 } },
        { type: 'screenshot', quality: 60 },
      ],
    });
    const [width, height] = json.data.actions.javascriptReturns[0].value as [number, number];
    const [viewport, sized, jpeg] = json.data.actions.screenshots as string[];
    expect(json.data.actions.screenshots).toHaveLength(3);
    expect(pngSize(dataUrlBytes(viewport as string, 'image/png'))).toEqual({ width, height });
    expect(pngSize(dataUrlBytes(sized as string, 'image/png'))).toEqual({ width: 800, height: 600 });
    expect(dataUrlBytes(jpeg as string, 'image/jpeg').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // The format's shot is data.screenshot: the whole 3000 px tower, taller than the viewport.
    const full = pngSize(dataUrlBytes(json.data.screenshot, 'image/png'));
    expect(full).toEqual({ width, height: 3000 });
    expect(json.warning).toBeUndefined();
  });

  it('prints a PDF', async () => {
    const { json } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/'),
      actions: [{ type: 'pdf', format: 'A4', landscape: true }],
    });
    const pdf = dataUrlBytes(json.data.actions.pdfs[0], 'application/pdf');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // A4 landscape: 842 × 595 points.
    const box = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf.toString('latin1'));
    expect(Math.abs(Number(box?.[1]) - 842)).toBeLessThan(3);
    expect(Math.abs(Number(box?.[2]) - 595)).toBeLessThan(3);
  });

  it('refuses proxy "stealth" with 503 when no stealth browser is connected', async () => {
    const { status, json } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/'),
      proxy: 'stealth',
    });
    expect(status).toBe(503);
    expect(json).toMatchObject({ success: false, code: 'STEALTH_UNAVAILABLE' });
  });
});
