import Firecrawl, { SdkError } from 'firecrawl';
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
