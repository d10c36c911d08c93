import { describe, expect, it } from 'vitest';
import { useSiteAndTabhive } from '../helpers/use-site-and-tabhive';
import { RENDERED_MESSAGE } from '../helpers/fixture-site';
import { freePort } from '../helpers/free-port';

const env = useSiteAndTabhive();

describe('POST /v2/scrape through a real browser running the extension', () => {
  it('returns Markdown containing text a script wrote after load', async () => {
    const { status, json } = await env.tabhive.post('/v2/scrape', { url: env.site.url('/js-rendered.html') });
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    expect(json.data.markdown).toContain('# Rendered content');
    expect(json.data.markdown).toContain(RENDERED_MESSAGE);
    expect(json.data.markdown).not.toContain('Loading…');
    expect(json.data.metadata).toMatchObject({
      title: 'Rendered by script: done',
      language: 'en',
      sourceURL: env.site.url('/js-rendered.html'),
      url: env.site.url('/js-rendered.html'),
      statusCode: 200,
      contentType: 'text/html; charset=utf-8',
      creditsUsed: 1,
      proxyUsed: 'basic',
    });
    expect(json.data.metadata.scrapeId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    // Only the requested format is present.
    expect(json.data.html).toBeUndefined();
    expect(json.data.rawHtml).toBeUndefined();
    expect(env.site.requests).toContain('/api/message.json');
  });

  it('renders pages as visible, so animation frames and timers run at full speed', async () => {
    const { json } = await env.tabhive.post('/v2/scrape', { url: env.site.url('/animation-frame.html') });
    expect(json.data.markdown).toBe('Drawn while visible.');
  });

  it('returns absolute links, html, rawHtml and page metadata', async () => {
    const { status, json } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/'),
      formats: ['markdown', 'html', 'rawHtml', { type: 'links' }],
    });
    expect(status).toBe(200);
    const { data } = json;
    expect(data.links).toEqual(
      expect.arrayContaining([
        env.site.url('/docs/getting-started.html'),
        env.site.url('/js-rendered.html#top'),
        'mailto:keeper@hive.test',
      ]),
    );
    for (const link of data.links as string[]) expect(link).toMatch(/^(https?|mailto):/);
    // onlyMainContent (the default) leaves out the header and footer navigation.
    expect(data.links).not.toContain(env.site.url('/about.html'));
    expect(data.markdown).toContain('| Bee | Role |');
    expect(data.markdown).not.toContain('hidden from readers');
    expect(data.html).toContain('Welcome to the hive');
    expect(data.html).not.toContain('<script');
    expect(data.rawHtml).toContain('<footer>');
    expect(data.rawHtml).toContain('hidden from readers');
    expect(data.metadata).toMatchObject({
      title: 'Hive Fixtures',
      description: 'A small site the tests serve themselves.',
      ogTitle: 'Hive Fixtures OG',
      ogSiteName: 'Fixture Site',
      'og:title': 'Hive Fixtures OG',
      favicon: env.site.url('/favicon.ico'),
    });
  });

  it('keeps navigation when onlyMainContent is false', async () => {
    const { json } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/'),
      formats: ['links'],
      onlyMainContent: false,
    });
    expect(json.data.links).toContain(env.site.url('/about.html'));
  });

  it('treats a 404 page as a successful scrape with its status code', async () => {
    const { status, json } = await env.tabhive.post('/v2/scrape', { url: env.site.url('/no-such-page') });
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    expect(json.data.metadata.statusCode).toBe(404);
    expect(json.data.markdown).toContain('Nothing buzzes here');
  });

  it('reports the final URL after a redirect and the requested one as sourceURL', async () => {
    const { json } = await env.tabhive.post('/v2/scrape', { url: env.site.url('/moved') });
    expect(json.data.metadata.sourceURL).toBe(env.site.url('/moved'));
    expect(json.data.metadata.url).toBe(env.site.url('/docs/getting-started.html'));
    expect(json.data.markdown).toContain('npm install hive');
  });

  it('returns a JSON document as sent: raw body and a fenced Markdown block', async () => {
    const { json } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/data.json'),
      formats: ['markdown', 'rawHtml'],
    });
    expect(JSON.parse(json.data.rawHtml)).toEqual({ hive: 'honey', bees: 3 });
    expect(json.data.markdown).toMatch(/^```json\n/);
    expect(json.data.metadata.contentType).toBe('application/json');
  });

  it('answers 408 SCRAPE_TIMEOUT when the page does not load within the timeout', async () => {
    const { status, json } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/never-loads.html'),
      timeout: 2_000,
    });
    expect(status).toBe(408);
    expect(json).toEqual({ success: false, code: 'SCRAPE_TIMEOUT', error: 'Scrape timed out' });
    // The browser is still healthy afterwards.
    const after = await env.tabhive.post('/v2/scrape', { url: env.site.url('/') });
    expect(after.status).toBe(200);
  });

  it('answers SCRAPE_SITE_ERROR when nothing listens at the target', async () => {
    const { status, json } = await env.tabhive.post('/v2/scrape', {
      url: `http://127.0.0.1:${await freePort()}/`,
    });
    expect(status).toBe(500);
    expect(json).toMatchObject({ success: false, code: 'SCRAPE_SITE_ERROR' });
    expect(json.error).toContain('ERR_CONNECTION_REFUSED');
  });

  it('runs several scrapes at once on one browser', async () => {
    const pages = ['/', '/js-rendered.html', '/docs/getting-started.html', '/no-such-page', '/'];
    const results = await Promise.all(
      pages.map((page) => env.tabhive.post('/v2/scrape', { url: env.site.url(page) })),
    );
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results[1]?.json.data.markdown).toContain(RENDERED_MESSAGE);
    expect(results[3]?.json.data.metadata.statusCode).toBe(404);
  });

  it('rejects an unknown format with 400 before any browser work', async () => {
    const before = env.site.requests.length;
    const { status, json } = await env.tabhive.post('/v2/scrape', {
      url: env.site.url('/'),
      formats: ['markdown', 'telepathy'],
    });
    expect(status).toBe(400);
    expect(json).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      error: expect.stringMatching(
        /^Bad Request: formats\[1\]: 'telepathy' is not a format; expected one of markdown, /,
      ),
    });
    expect(env.site.requests.length).toBe(before);
  });
});
