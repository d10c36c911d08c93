import Firecrawl, { FirecrawlAppV1, SdkError } from 'firecrawl';
import { describe, expect, it } from 'vitest';
import { useSiteAndTabhive } from '../helpers/use-site-and-tabhive';
import { RENDERED_MESSAGE } from '../helpers/fixture-site';

const env = useSiteAndTabhive();

describe('the official Firecrawl JS SDK against Tabhive', () => {
  it('scrape() returns the rendered page as Markdown with metadata', async () => {
    const firecrawl = new Firecrawl({ apiKey: env.tabhive.apiKey, apiUrl: env.tabhive.url });
    const document = await firecrawl.scrape(env.site.url('/js-rendered.html'), {
      formats: ['markdown', 'links'],
    });
    expect(document.markdown).toContain(RENDERED_MESSAGE);
    expect(document.links).toContain(env.site.url('/docs/getting-started.html'));
    expect(document.metadata?.statusCode).toBe(200);
    expect(document.metadata?.sourceURL).toBe(env.site.url('/js-rendered.html'));
  });

  it('search() finds pages this Tabhive scraped, grouped by source, and scrapes them on request', async () => {
    const firecrawl = new Firecrawl({ apiKey: env.tabhive.apiKey, apiUrl: env.tabhive.url });
    await firecrawl.scrape(env.site.url('/'), { formats: ['links'] });
    const found = await firecrawl.search('welcome hive keeper', { limit: 3 });
    expect(found.web?.[0]).toMatchObject({ url: env.site.url('/'), title: 'Hive Fixtures', position: 1 });
    expect(found.news).toBeUndefined();
    expect(found.images).toBeUndefined();
    const scraped = await firecrawl.search('welcome hive keeper', {
      limit: 1,
      scrapeOptions: { formats: ['markdown'] },
    });
    expect(scraped.web?.[0]).toMatchObject({
      url: env.site.url('/'),
      markdown: expect.stringContaining('Welcome to the hive') as string,
    });
  });

  it('FirecrawlAppV1.search() returns the web results as an array', async () => {
    const app = new FirecrawlAppV1({ apiKey: env.tabhive.apiKey, apiUrl: env.tabhive.url });
    await app.scrapeUrl(env.site.url('/docs/getting-started.html'), { formats: ['markdown'] });
    const found = await app.search('install hive getting started', { limit: 2 });
    expect(found.success).toBe(true);
    expect(found.data[0]).toMatchObject({
      url: env.site.url('/docs/getting-started.html'),
      title: 'Getting started',
    });
  });

  it('surfaces an authentication failure as an SDK error with status 401', async () => {
    const firecrawl = new Firecrawl({
      apiKey: 'fc-00000000000000000000000000000000',
      apiUrl: env.tabhive.url,
    });
    const failure = await firecrawl.scrape(env.site.url('/')).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).status).toBe(401);
  });
});
