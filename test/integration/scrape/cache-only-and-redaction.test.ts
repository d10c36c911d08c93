/**
 * minAge, lockdown and redactPII through real HTTP on loopback, with the real stores (embedded and,
 * where FerretDB is installed, MongoDB) and no browser: the pages are plain HTML, which the HTTP
 * fast path fetches. Jobs need browsers and are tested end to end (test/e2e/cache-only-options.test.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/platform/config';
import { createLog } from '../../../server/platform/log/log';
import { startTabhive } from '../../../server/start-tabhive';
import { startFakeLlmServer } from '../../helpers/fake-llm-server';
import { storeBackends } from '../../helpers/store-backends';

const API_KEY = 'fc-cache-only-redaction-key-0001';

/** A page with personal data of every kind the patterns know, and a name and a place for the LLM. */
const personalPage = (version: number) =>
  `<!doctype html><html><head><title>Ada Lovelace – contact</title>` +
  `<meta name="description" content="Write to ada@example.com"></head><body><main>` +
  `<h1>Ada Lovelace</h1><p>Version ${version}. Ada lives in London. Write to ` +
  `<a href="mailto:ada@example.com">ada@example.com</a> or call +44 20 7946 0958.</p>` +
  `<p>She pays with 4111 1111 1111 1111 into DE89 3704 0044 0532 0130 00, and her key is ` +
  `password=Tr0ub4dor-3 for the analytical engine, a machine of cards and columns.</p></main></body></html>`;

/** A site that counts its visits per path, so that a test can tell the cache from the site. */
async function startSite() {
  const visits = new Map<string, number>();
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    const visit = (visits.get(pathname) ?? 0) + 1;
    visits.set(pathname, visit);
    const html = (body: string) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(body);
    };
    if (pathname.startsWith('/person/')) html(personalPage(visit));
    else {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<p>not here</p>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (pathname: string) => `http://127.0.0.1:${port}${pathname}`,
    visits: (pathname: string) => visits.get(pathname) ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Reply = { status: number; json: any };

let site: Awaited<ReturnType<typeof startSite>>;
let llm: Awaited<ReturnType<typeof startFakeLlmServer>>;
beforeAll(async () => {
  site = await startSite();
  llm = await startFakeLlmServer();
});
afterAll(async () => {
  await site?.close();
  await llm?.close();
});
beforeEach(() => llm.reset());

describe.each(storeBackends())(
  'minAge, lockdown and redactPII through /v2/scrape on the $name store',
  (backend) => {
    let dataDir: string;
    let tabhive: Awaited<ReturnType<typeof startTabhive>>;
    const call = async (method: string, pathname: string, body?: unknown): Promise<Reply> => {
      const response = await fetch(`${tabhive.url}${pathname}`, {
        method,
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
      return { status: response.status, json: (await response.json()) as any };
    };
    const scrape = (body: Record<string, unknown>) => call('POST', '/v2/scrape', body);
    const page = (name: string) => site.url(`/person/${backend.name}-${name}`);
    const visitsOf = (name: string) => site.visits(`/person/${backend.name}-${name}`);

    beforeAll(async () => {
      const env = await backend.start();
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-cache-only-'));
      tabhive = await startTabhive({
        config: loadConfig({
          PORT: '0',
          BROWSERS: '0',
          DATA_DIR: dataDir,
          API_KEY,
          ALLOW_PRIVATE_NETWORKS: 'true',
          LLM_BASE_URL: llm.baseUrl,
          ...env,
        }),
        server: createServer(),
        log: createLog({ quiet: true }),
      });
    }, 60_000);
    afterAll(async () => {
      await tabhive?.stop();
      await backend.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('answers lockdown from the cache only: a miss is a 404 and the site is never asked', async () => {
      const miss = await scrape({ url: page('lockdown'), lockdown: true });
      expect(miss.status).toBe(404);
      expect(miss.json).toMatchObject({ success: false, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
      expect(miss.json.error).toContain('lockdown never contacts the site');
      expect(visitsOf('lockdown')).toBe(0);

      const fresh = await scrape({ url: page('lockdown') });
      const cached = await scrape({ url: page('lockdown'), lockdown: true, formats: ['markdown', 'links'] });
      expect(cached.status).toBe(200);
      expect(cached.json.data.metadata.cacheState).toBe('hit');
      expect(cached.json.data.markdown).toBe(fresh.json.data.markdown);
      expect(cached.json.data.links).toContain('mailto:ada@example.com');
      expect(visitsOf('lockdown')).toBe(1);
    });

    it('serves minAge only a copy at least that old, and never scrapes for it', async () => {
      const first = await scrape({ url: page('min-age') });
      const young = await scrape({ url: page('min-age'), minAge: 60_000 });
      expect(young.status).toBe(404);
      expect(young.json).toMatchObject({ success: false, code: 'SCRAPE_NO_CACHED_DATA' });
      expect(young.json.error).toContain('at least 60000 ms old');
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const old = await scrape({ url: page('min-age'), minAge: 1_000, maxAge: 600_000 });
      expect([old.status, old.json.data.metadata.cacheState]).toEqual([200, 'hit']);
      expect(old.json.data.markdown).toBe(first.json.data.markdown);
      expect(old.json.data.markdown).toContain('Version 1.');
      expect(visitsOf('min-age')).toBe(1);
      const window = await scrape({ url: page('min-age'), minAge: 5_000, maxAge: 1_000 });
      expect([window.status, window.json.code]).toEqual([400, 'BAD_REQUEST']);
    });

    it('redacts every output of a redactPII scrape, keeps it redacted, and caches nothing of it', async () => {
      llm.answer(JSON.stringify({ PERSON: ['Ada Lovelace', 'Ada'], LOCATION: ['London'] }));
      const redacted = await scrape({
        url: page('redact'),
        formats: ['markdown', 'html', 'rawHtml', 'links'],
        redactPII: true,
      });
      expect(redacted.status).toBe(200);
      const data = redacted.json.data;
      expect(data.markdown).toContain('<PERSON> lives in <LOCATION>. Write to');
      expect(data.markdown).toContain('call <PHONE>');
      expect(data.markdown).toContain('pays with <FINANCIAL> into <FINANCIAL>');
      expect(data.markdown).toContain('password=<SECRET> for the analytical engine');
      expect(data.html).toContain('&lt;EMAIL&gt;');
      expect(data.links).toContain('mailto:<EMAIL>');
      expect(data.metadata.title).toBe('<PERSON> – contact');
      expect(data.metadata.description).toBe('Write to <EMAIL>');
      expect(data.metadata.sourceURL).toBe(page('redact'));
      const everything = JSON.stringify(data);
      for (const secret of [
        'ada@example.com',
        'Lovelace',
        '7946 0958',
        '4111 1111',
        'DE89',
        'Tr0ub4dor',
        'London',
      ]) {
        expect(everything).not.toContain(secret);
      }
      expect(data.warning).toBeUndefined();
      expect(llm.requests).toHaveLength(1);
      // What GET /v2/scrape/:id serves is the redacted document.
      const kept = await call('GET', `/v2/scrape/${data.metadata.scrapeId}`);
      expect(kept.json.data).toEqual(data);

      // The capture a redacting request took was not cached: the next plain request goes to the site.
      const plain = await scrape({ url: page('redact') });
      expect(plain.json.data.metadata.cacheState).toBe('miss');
      expect(plain.json.data.markdown).toContain('ada@example.com');
      expect(visitsOf('redact')).toBe(2);
      // A redacting request may read what a plain one cached, and redacts it the same way.
      const fromCache = await scrape({
        url: page('redact'),
        redactPII: { entities: ['EMAIL', 'PHONE'], replaceStyle: 'mask' },
      });
      expect(fromCache.json.data.metadata.cacheState).toBe('hit');
      expect(fromCache.json.data.markdown).toContain(
        `Write to [${'*'.repeat(15)}](mailto:${'*'.repeat(15)})`,
      );
      expect(fromCache.json.data.markdown).toContain('Ada Lovelace');
      expect(llm.requests).toHaveLength(1);
    });

    it('fails a redactPII scrape whose LLM fails, rather than answer unredacted', async () => {
      llm.answer({ status: 503, body: '{"error":"down"}' });
      const failed = await scrape({ url: page('redact-fails'), redactPII: { entities: ['PERSON'] } });
      expect(failed.status).toBe(500);
      expect(failed.json).toMatchObject({ success: false, code: 'SCRAPE_PII_REDACTION_FAILED' });
    });
  },
);
