import Firecrawl, { SdkError } from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERED_MESSAGE, startFixtureSite } from '../helpers/fixture-site';
import { startTestTabhive } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startFixtureSite();
  tabhive = await startTestTabhive();
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

describe('the official Firecrawl JS SDK against Tabhive', () => {
  it('scrape() returns the rendered page as Markdown with metadata', async () => {
    const firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
    const document = await firecrawl.scrape(site.url('/js-rendered.html'), {
      formats: ['markdown', 'links'],
    });
    expect(document.markdown).toContain(RENDERED_MESSAGE);
    expect(document.links).toContain(site.url('/docs/getting-started.html'));
    expect(document.metadata?.statusCode).toBe(200);
    expect(document.metadata?.sourceURL).toBe(site.url('/js-rendered.html'));
  });

  it('surfaces an authentication failure as an SDK error with status 401', async () => {
    const firecrawl = new Firecrawl({ apiKey: 'fc-00000000000000000000000000000000', apiUrl: tabhive.url });
    const failure = await firecrawl.scrape(site.url('/')).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).status).toBe(401);
  });
});
