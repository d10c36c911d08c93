import { describe, expect, it } from 'vitest';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { BrowserClass, PageCapture } from '../../../shared/protocol/messages';
import { TabhiveError } from '../../../server/platform/errors/tabhive-error';
import { httpStatusOf } from '../../../server/api/http/error-status';
import { TaskError } from '../../../server/browsers/hub/task-error';
import { silentLog } from '../../../server/platform/log/log';
import { createCachedCapture } from '../../../server/scrape/capture/cached-capture';
import { DEFAULT_SCRAPE_TIMEOUT_MS } from '../../../server/scrape/derive/scrape-deadline';
import { createScraper } from '../../../server/scrape/create-scraper';
import { createUrlPolicy } from '../../../server/platform/url-policy/create-url-policy';

const page: PageCapture = {
  url: 'https://a.example/',
  statusCode: 200,
  rawHtml: '<html><body><main><p>Honey</p></main></body></html>',
  renderedHtml: '<html><body><main><p>Honey</p></main></body></html>',
  actions: {
    screenshots: ['data:image/png;base64,QQ==', 'data:image/png;base64,Rk9STUFU'],
    scrapes: [],
    javascriptReturns: [],
    pdfs: [],
  },
};

const embedded = useEmbeddedStores();

function setup(outcome: PageCapture | TaskError = page, stealthBrowsers = 0) {
  const calls: Array<{ timeoutMs: number; browserClass: BrowserClass | undefined }> = [];
  const scraper = createScraper({
    cachedCapture: createCachedCapture({ cache: embedded.stores.cache, log: silentLog }),
    results: embedded.stores.results,
    log: silentLog,
    runTask: async (_spec, { timeoutMs, browserClass }) => {
      calls.push({ timeoutMs, browserClass });
      if (outcome instanceof TaskError) throw outcome;
      return outcome;
    },
    connectedBrowsers: (browserClass) => (browserClass === 'stealth' ? stealthBrowsers : 1),
    urlPolicy: createUrlPolicy({ allowPrivateNetworks: false, lookup: async () => ['93.184.215.14'] }),
  });
  return { scraper, calls };
}

const scrape = (scraper: ReturnType<typeof setup>['scraper'], body: Record<string, unknown>) =>
  scraper.scrape(ScrapeRequestV2.parse({ url: 'https://a.example/', maxAge: 0, ...body }), {
    teamId: 't',
    admission: 'api',
  });

describe('browser control in the scrape pipeline', () => {
  it('gives the task its timeout plus the time its wait actions take', async () => {
    const { scraper, calls } = setup();
    await scrape(scraper, {
      timeout: 10_000,
      actions: [{ type: 'wait', milliseconds: 2_000 }, { type: 'wait', selector: '#x' }, { type: 'scrape' }],
    });
    await scrape(scraper, {});
    expect(calls.map((call) => call.timeoutMs)).toEqual([13_000, DEFAULT_SCRAPE_TIMEOUT_MS]);
  });

  it('answers with data.screenshot and data.actions, and without the skipped-formats warning', async () => {
    const { scraper } = setup();
    const document = await scrape(scraper, {
      formats: ['markdown', 'screenshot'],
      actions: [{ type: 'screenshot' }],
    });
    expect(document.screenshot).toBe('data:image/png;base64,Rk9STUFU');
    expect(document.actions?.screenshots).toEqual(['data:image/png;base64,QQ==']);
    expect(document.warning).toBeUndefined();
    expect(document.metadata).toMatchObject({ proxyUsed: 'basic', creditsUsed: 1 });
  });

  it('reports stealth work in proxyUsed and bills it', async () => {
    const { scraper, calls } = setup(page, 1);
    const document = await scrape(scraper, { proxy: 'stealth' });
    expect(calls[0]?.browserClass).toBe('stealth');
    expect(document.metadata).toMatchObject({ proxyUsed: 'stealth', creditsUsed: 5 });
  });

  it('maps a failed action to 500 SCRAPE_ACTION_ERROR with the browser reason', async () => {
    const { scraper } = setup(
      new TaskError('SCRAPE_ACTION_ERROR', 'actions[0] (click) failed: no element matches #x'),
    );
    const error = (await scrape(scraper, { actions: [{ type: 'click', selector: '#x' }] }).catch(
      (err) => err,
    )) as TabhiveError;
    expect(error).toBeInstanceOf(TabhiveError);
    expect(httpStatusOf(error)).toBe(500);
    expect(error.code).toBe('SCRAPE_ACTION_ERROR');
    expect(error.message).toBe(
      'Action(s) failed to complete. Error code: actions[0] (click) failed: no element matches #x',
    );
  });

  it('answers 503 STEALTH_UNAVAILABLE for stealth without a stealth browser, before any work', async () => {
    const { scraper, calls } = setup(page, 0);
    const error = (await scrape(scraper, { proxy: 'stealth' }).catch((err) => err)) as TabhiveError;
    expect(httpStatusOf(error)).toBe(503);
    expect(error.code).toBe('STEALTH_UNAVAILABLE');
    expect(error.retryAfterSeconds).toBe(5);
    expect(calls).toEqual([]);
  });
});
