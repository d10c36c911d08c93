import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTabhive } from '../../helpers/start-test-tabhive';

/**
 * A cache-only crawl (lockdown) never reaches its site, so accepting it must not even ask DNS for
 * the site's name; an ordinary crawl of the same site does look the name up before it starts.
 */

const looked: string[] = [];
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  tabhive = await startTestTabhive({
    browsers: 0,
    lookup: async (hostname) => {
      looked.push(hostname);
      return ['93.184.215.14'];
    },
  });
});
afterAll(() => tabhive?.stop());

const crawl = (body: unknown) =>
  fetch(`${tabhive.url}/v2/crawl`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tabhive.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('a lockdown crawl', () => {
  it('is accepted without a DNS lookup of its site', async () => {
    const response = await crawl({
      url: 'https://lockdown-only.example/',
      limit: 2,
      sitemap: 'skip',
      scrapeOptions: { lockdown: true },
    });
    expect(response.status).toBe(200);
    expect(looked).not.toContain('lockdown-only.example');

    const ordinary = await crawl({ url: 'https://looked-up.example/', limit: 2, sitemap: 'skip' });
    expect(ordinary.status).toBe(200);
    expect(looked).toContain('looked-up.example');
  });
});
