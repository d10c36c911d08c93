import { describe, expect, it } from 'vitest';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import { TabhiveError } from '../../../server/platform/errors/tabhive-error';
import { httpStatusOf } from '../../../server/api/http/error-status';
import { TaskError } from '../../../server/browsers/hub/task-error';
import { silentLog } from '../../../server/platform/log/log';
import { MAX_CACHED_CAPTURE_CHARS, createCachedCapture } from '../../../server/scrape/capture/cached-capture';
import { DEFAULT_SCRAPE_TIMEOUT_MS } from '../../../server/scrape/derive/scrape-deadline';
import { createScraper } from '../../../server/scrape/create-scraper';
import { createUrlPolicy } from '../../../server/platform/url-policy/create-url-policy';

const STRICT = { allowPrivateNetworks: false, allowedPrivateHosts: [] };

const page: PageCapture = {
  url: 'https://docs.example.com/final',
  statusCode: 200,
  contentType: 'text/html',
  rawHtml:
    '<html lang="en"><head><title>Docs</title></head><body><nav><a href="/nav">Nav</a></nav><main><h1>Docs</h1><p>Body <a href="/a">A</a></p></main></body></html>',
  renderedHtml:
    '<html lang="en"><head><title>Docs</title></head><body><nav><a href="/nav">Nav</a></nav><main><h1>Docs</h1><p>Body <a href="/a">A</a></p></main></body></html>',
};

const embedded = useEmbeddedStores();

function setup({ outcome = page as PageCapture | TaskError, addresses = ['93.184.215.14'] } = {}) {
  const calls: Array<{ spec: PageTaskSpec; timeoutMs: number }> = [];
  const scraper = createScraper({
    cachedCapture: createCachedCapture({ cache: embedded.stores.cache, log: silentLog }),
    results: embedded.stores.results,
    log: silentLog,
    runTask: async (spec, { timeoutMs }) => {
      calls.push({ spec, timeoutMs });
      if (outcome instanceof TaskError) throw outcome;
      return outcome;
    },
    urlPolicy: createUrlPolicy({
      allowPrivateNetworks: false,
      lookup: async (host) => {
        if (host === 'nowhere.example') throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
        return addresses;
      },
    }),
  });
  return { scraper, calls };
}

const TEAM = { teamId: 'team-a', admission: 'api' as const };
const request = (body: Record<string, unknown>) => ScrapeRequestV2.parse(body);

async function apiError(promise: Promise<unknown>): Promise<TabhiveError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TabhiveError);
  return error as TabhiveError;
}

describe('the scrape pipeline', () => {
  it('runs a task with the default timeout and builds the document from the capture', async () => {
    const { scraper, calls } = setup();
    const document = await scraper.scrape(
      request({ url: 'docs.example.com/start', formats: ['markdown', 'links'] }),
      TEAM,
    );
    expect(calls).toEqual([
      {
        // The server's network policy travels with every task, for the browser to enforce.
        spec: { url: 'http://docs.example.com/start', waitForMs: 0, skipMedia: true, networkPolicy: STRICT },
        timeoutMs: DEFAULT_SCRAPE_TIMEOUT_MS,
      },
    ]);
    expect(document.markdown).toContain('# Docs');
    expect(document.links).toEqual(['https://docs.example.com/a']);
    expect(document.warning).toBeUndefined();
    expect(document.metadata).toMatchObject({
      title: 'Docs',
      language: 'en',
      sourceURL: 'docs.example.com/start',
      url: 'https://docs.example.com/final',
      statusCode: 200,
      contentType: 'text/html',
      creditsUsed: 1,
      proxyUsed: 'basic',
    });
  });

  it('passes timeout and waitFor to the browser', async () => {
    const { scraper, calls } = setup();
    await scraper.scrape(
      request({ url: 'https://docs.example.com/', timeout: 20_000, waitFor: 1_500 }),
      TEAM,
    );
    expect(calls[0]).toEqual({
      spec: { url: 'https://docs.example.com/', waitForMs: 1_500, skipMedia: true, networkPolicy: STRICT },
      timeoutMs: 20_000,
    });
  });

  it('makes every v2 format, so none is skipped with a warning', async () => {
    const { scraper } = setup();
    const document = await scraper.scrape(
      request({
        url: 'https://docs.example.com/',
        formats: ['markdown', 'screenshot', 'images', { type: 'branding' }],
      }),
      TEAM,
    );
    expect(document.markdown).toContain('Docs');
    expect(document.images).toEqual(expect.any(Array));
    expect(document.warning).toBeUndefined();
  });

  it('computes summary and json from the page without an LLM, at the json price', async () => {
    const { scraper } = setup();
    const document = await scraper.scrape(
      request({
        url: 'https://docs.example.com/',
        formats: [
          'summary',
          { type: 'json', schema: { type: 'object', properties: { title: { type: 'string' } } } },
        ],
      }),
      TEAM,
    );
    expect(document).toMatchObject({ json: { title: 'Docs' }, metadata: { creditsUsed: 5 } });
    // What the derivation read for json stays internal.
    expect(document).not.toHaveProperty('facts');
    expect(typeof document.summary).toBe('string');
    // Markdown was needed for them, not asked for.
    expect(document.markdown).toBeUndefined();
    expect(document.warning).toBeUndefined();
  });

  it('refuses an unusable schema before any browser work', async () => {
    const { scraper, calls } = setup();
    const error = await apiError(
      scraper.scrape(
        request({ url: 'https://docs.example.com/', formats: [{ type: 'json', schema: { type: 'nope' } }] }),
        TEAM,
      ),
    );
    expect(httpStatusOf(error)).toBe(400);
    expect(JSON.stringify(error.details)).toMatch(/Invalid schema: schema does not compile/);
    expect(calls).toHaveLength(0);
  });

  it('refuses a private target before any browser work', async () => {
    const { scraper, calls } = setup();
    const error = await apiError(scraper.scrape(request({ url: 'http://127.0.0.1:8080/admin' }), TEAM));
    expect(httpStatusOf(error)).toBe(403);
    expect(error.code).toBe('URL_BLOCKED');
    expect(error.message).toContain('ALLOW_PRIVATE_NETWORKS');
    expect(calls).toHaveLength(0);
  });

  it('refuses a public name that resolves to a private address', async () => {
    const { scraper, calls } = setup({ addresses: ['10.0.0.5'] });
    const error = await apiError(
      scraper.scrape(request({ url: 'https://intranet-alias.example.com/' }), TEAM),
    );
    expect(error.code).toBe('URL_BLOCKED');
    expect(calls).toHaveLength(0);
  });

  it('reports a name that does not resolve as a DNS error', async () => {
    const { scraper } = setup();
    const error = await apiError(scraper.scrape(request({ url: 'https://nowhere.example/' }), TEAM));
    expect(httpStatusOf(error)).toBe(500);
    expect(error.code).toBe('SCRAPE_DNS_RESOLUTION_ERROR');
    expect(error.message).toContain('nowhere.example');
  });

  it('answers 400 for an invalid selector without dispatching', async () => {
    const { scraper, calls } = setup();
    const error = await apiError(
      scraper.scrape(request({ url: 'https://docs.example.com/', excludeTags: ['div[[['] }), TEAM),
    );
    expect(httpStatusOf(error)).toBe(400);
    expect(error.code).toBe('BAD_REQUEST');
    expect(calls).toHaveLength(0);
  });

  it('does not cache a capture too large for a MongoDB document (a big PDF)', async () => {
    const pdfBase64 = `JVBER${'A'.repeat(MAX_CACHED_CAPTURE_CHARS)}`;
    const { scraper, calls } = setup({
      outcome: {
        ...page,
        url: 'https://docs.example.com/big.pdf',
        contentType: 'application/pdf',
        pdfBase64,
      },
    });
    const body = { url: 'https://docs.example.com/big.pdf', parsers: [] };
    const first = await scraper.scrape(request(body), TEAM);
    const second = await scraper.scrape(request(body), TEAM);
    expect(first.markdown?.length).toBe(pdfBase64.length);
    expect([first.metadata.cacheState, second.metadata.cacheState]).toEqual(['miss', 'miss']);
    expect(calls).toHaveLength(2);
  });

  it('answers a repeated request from the cache, scoped to what the browser saw', async () => {
    const { scraper, calls } = setup();
    const url = 'https://docs.example.com/cached';
    const first = await scraper.scrape(request({ url }), TEAM);
    const second = await scraper.scrape(request({ url, formats: ['links'] }), TEAM);
    expect(calls).toHaveLength(1);
    expect(first.metadata.cacheState).toBe('miss');
    expect(second.metadata.cacheState).toBe('hit');
    expect(second.links).toEqual(['https://docs.example.com/a']);
    await scraper.scrape(request({ url, mobile: true }), TEAM);
    expect(calls).toHaveLength(2);
  });

  it('keeps each result for GET /v2/scrape/:id unless zero data retention was asked for', async () => {
    const { scraper } = setup();
    const kept = await scraper.scrape(request({ url: 'https://docs.example.com/kept' }), TEAM);
    expect((await embedded.stores.results.get(kept.metadata.scrapeId))?.document).toEqual(kept);
    const secret = await scraper.scrape(
      request({ url: 'https://docs.example.com/kept', zeroDataRetention: true }),
      TEAM,
    );
    expect(secret.metadata.cacheState).toBeUndefined();
    expect(await embedded.stores.results.get(secret.metadata.scrapeId)).toBeUndefined();
  });

  it.each([
    [new TaskError('SCRAPE_TIMEOUT', 'Scrape timed out'), 408, 'SCRAPE_TIMEOUT'],
    [new TaskError('NO_BROWSER', 'none'), 503, 'NO_BROWSER_AVAILABLE'],
    [new TaskError('SCRAPE_SITE_ERROR', 'net::ERR_CONNECTION_RESET'), 500, 'SCRAPE_SITE_ERROR'],
    [new TaskError('SCRAPE_SSL_ERROR', 'net::ERR_CERT_DATE_INVALID'), 500, 'SCRAPE_SSL_ERROR'],
    [
      new TaskError('SCRAPE_DNS_RESOLUTION_ERROR', 'net::ERR_NAME_NOT_RESOLVED'),
      500,
      'SCRAPE_DNS_RESOLUTION_ERROR',
    ],
    [
      new TaskError('BROWSER_LOST', 'The browser running this task disconnected'),
      500,
      'SCRAPE_ALL_ENGINES_FAILED',
    ],
  ])('maps a %s task failure to HTTP %i %s', async (failure, status, code) => {
    const { scraper } = setup({ outcome: failure });
    const error = await apiError(
      scraper.scrape(request({ url: 'https://docs.example.com/', maxAge: 0 }), TEAM),
    );
    expect(httpStatusOf(error)).toBe(status);
    expect(error.code).toBe(code);
  });
});
