import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Firecrawl from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * The `firecrawl` npm package's v2 client passes the scrape option `profile` through scrape() and
 * batchScrape(): a named browser profile keeps a site's login between calls.
 */

let site: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let firecrawl: Firecrawl;

const siteUrl = (pathname: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${pathname}`;

beforeAll(async () => {
  site = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    const headers: Record<string, string> = { 'content-type': 'text/html' };
    let body = '<h1>Home</h1>';
    if (url.pathname === '/login') {
      headers['set-cookie'] = `session=${url.searchParams.get('as') ?? 'nobody'}; Path=/; HttpOnly`;
      body = '<h1>Logged in</h1>';
    } else if (url.pathname === '/pref') {
      headers['set-cookie'] = 'pref=dark; Path=/; Max-Age=3600';
      body = '<h1>Preference kept</h1>';
    } else if (url.pathname === '/whoami') {
      body = `<h1>Who am I</h1><p>COOKIE is "${request.headers.cookie ?? ''}"</p>`;
    }
    response.writeHead(200, headers).end(`<!doctype html><title>Site</title><body>${body}</body>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  tabhive = await startTestTabhive({ browsers: 2 });
  firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
});
afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

describe('JS SDK v2 client: browser profiles', () => {
  it('scrape() with profile keeps a login for the next scrape with it, and saveChanges: false does not save', async () => {
    const login = await firecrawl.scrape(siteUrl('/login?as=js'), { profile: { name: 'js-sdk' } });
    expect(login.markdown).toContain('Logged in');
    const again = await firecrawl.scrape(siteUrl('/whoami'), { profile: { name: 'js-sdk' } });
    expect(again.markdown).toContain('COOKIE is "session=js"');
    expect(again.metadata?.statusCode).toBe(200);

    await firecrawl.scrape(siteUrl('/login?as=other'), { profile: { name: 'js-sdk', saveChanges: false } });
    const still = await firecrawl.scrape(siteUrl('/whoami'), { profile: { name: 'js-sdk' } });
    expect(still.markdown).toContain('COOKIE is "session=js"');

    const anonymous = await firecrawl.scrape(siteUrl('/whoami'), { maxAge: 0, waitFor: 100 });
    expect(anonymous.markdown).toContain('COOKIE is ""');
  });

  it('batchScrape() with profile runs every page in the profile and keeps what each one set', async () => {
    const job = await firecrawl.batchScrape([siteUrl('/login?as=batch'), siteUrl('/pref')], {
      options: { formats: ['markdown'], profile: { name: 'js-batch' } },
      pollInterval: 1,
    });
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(2);
    const whoami = await firecrawl.scrape(siteUrl('/whoami'), { profile: { name: 'js-batch' } });
    expect(whoami.markdown).toContain('session=batch');
    expect(whoami.markdown).toContain('pref=dark');
  });
});
