import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEAM } from '../../../server/platform/auth/keyring';
import type { ExtractSpec } from '../../../server/products/extract/extract-spec';
import { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import { startTestTabhive, waitUntil } from '../../helpers/start-test-tabhive';
import { MANY_PAGES, startExtractSite, startWebhookReceiver } from './extract-site';

/**
 * `/v2/extract` and `/v1/extract` through the whole server (embedded store, no browser: the
 * fixture pages are plain HTML, served over the HTTP fast path) and no LLM: the built-in filling
 * per page and the built-in merge.
 */

let site: Awaited<ReturnType<typeof startExtractSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startExtractSite();
  tabhive = await startTestTabhive({ browsers: 0 });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

const productSchema = {
  type: 'object',
  properties: {
    brand: { type: 'string' },
    warranty: { type: 'string' },
    products: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, price: { type: 'number' }, sku: { type: 'string' } },
        required: ['name', 'sku'],
      },
    },
  },
  required: ['brand', 'warranty', 'products'],
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
async function settled(version: 'v1' | 'v2', id: string, key?: string): Promise<any> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see the signature
  let body: any;
  await waitUntil(
    async () => {
      const response = await fetch(`${tabhive.url}/${version}/extract/${id}`, {
        headers: { authorization: `Bearer ${key ?? tabhive.apiKey}` },
      });
      body = await response.json();
      return body.status !== 'processing';
    },
    60_000,
    `extract ${id} to end`,
  );
  return body;
}

async function extract(version: 'v1' | 'v2', request: Record<string, unknown>) {
  const started = await tabhive.post(`/${version}/extract`, request);
  expect(started.status, JSON.stringify(started.json)).toBe(200);
  expect(started.json).toEqual({ success: true, id: expect.any(String), urlTrace: [] });
  return settled(version, started.json.id);
}

const creditsUsedByTeam = async () =>
  (await tabhive.tabhive.stores.teams.get(DEFAULT_TEAM.id))?.creditsUsed ?? 0;

describe('POST /v2/extract without an LLM', () => {
  it('fills the schema from each page, merges them, names sources and the required fields left empty', async () => {
    const before = await creditsUsedByTeam();
    const lamp = site.url('/products/lamp.html');
    const chair = site.url('/products/chair.html');
    const result = await extract('v2', { urls: [lamp, chair], schema: productSchema, showSources: true });

    expect(result.status).toBe('completed');
    expect(result.success).toBe(true);
    expect(result.data).toEqual({
      brand: 'Lumen',
      products: [
        { name: 'Desk Lamp', price: 39.9 },
        { name: 'Office Chair', price: 129 },
      ],
    });
    expect(result.sources).toEqual({
      brand: [lamp],
      'products[0].name': [lamp],
      'products[0].price': [lamp],
      'products[1].name': [chair],
      'products[1].price': [chair],
    });
    expect(result.warning).toContain(
      'These required fields were not found on any page and are left empty: warranty, products[].sku.',
    );
    // Two pages, each booked as the json-format scrape it is, once.
    expect(result.creditsUsed).toBe(10);
    expect((await creditsUsedByTeam()) - before).toBe(10);
    expect(Date.parse(result.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('answers the published structured data for a prompt alone, and says the prompt was not used', async () => {
    const lamp = site.url('/products/lamp.html');
    const result = await extract('v2', { urls: [lamp], prompt: 'What does the lamp cost?' });
    expect(result.status).toBe('completed');
    expect(result.data.title).toBe('Desk Lamp');
    expect(result.data.jsonLd[0]).toMatchObject({ '@type': 'Product', name: 'Desk Lamp' });
    expect(result.warning).toMatch(/No LLM is configured \(LLM_BASE_URL\), so the prompt was not used/);
    expect(result.sources).toBeUndefined();
  });

  it('reads a wildcard URL through the site map, up to the per-wildcard cap, and says what the cap cut', async () => {
    const result = await extract('v2', {
      urls: [site.url('/many/*')],
      schema: {
        type: 'object',
        properties: {
          products: {
            type: 'array',
            items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
          },
        },
      },
    });
    expect(result.status).toBe('completed');
    // The start page and 24 of the MANY_PAGES items; the start page publishes no product.
    expect(result.data.products).toHaveLength(24);
    expect(result.data.products[0]).toEqual({ name: 'Item 1', price: 1 });
    expect(result.warning).toContain(
      `covers ${MANY_PAGES + 1} pages; the first 25 were read (at most 25 per wildcard URL).`,
    );
    // 25 pages at 5 credits and one site map.
    expect(result.creditsUsed).toBe(126);
  });

  it('reports pages that answered an error status, and fails when no page could be read', async () => {
    const partial = await extract('v2', {
      urls: [site.url('/products/chair.html'), site.url('/gone.html')],
      schema: productSchema,
    });
    expect(partial.status).toBe('completed');
    expect(partial.data.brand).toBe('Sitwell');
    expect(partial.warning).toContain(
      `1 page(s) answered with an error status and were not extracted from: ${site.url('/gone.html')} (404).`,
    );

    const none = await extract('v2', { urls: [site.url('/gone.html')], schema: productSchema });
    expect(none.status).toBe('failed');
    expect(none.data).toBeNull();
    expect(none.error).toMatch(/^None of the 1 page\(s\) could be read\./);
  });

  it('adds the pages a web search for the prompt finds (the local index here)', async () => {
    const chair = site.url('/products/chair.html');
    // Scraped pages join the team's local search index, which SEARCH_PROVIDER=local searches.
    expect((await tabhive.post('/v2/scrape', { url: chair, formats: ['markdown'] })).status).toBe(200);
    const result = await extract('v2', {
      prompt: 'Office Chair',
      enableWebSearch: true,
      schema: productSchema,
      showSources: true,
    });
    expect(result.status).toBe('completed');
    expect(result.data.products).toContainEqual({ name: 'Office Chair', price: 129 });
    expect(Object.values(result.sources).flat()).toContain(chair);
    // Each page found at 5 credits, and the search at 1 per result.
    const pages = new Set(Object.values(result.sources as Record<string, string[]>).flat()).size;
    expect(result.creditsUsed).toBeGreaterThanOrEqual(pages * 5 + pages);
  });

  it('sends the started and completed webhooks with the extracted data', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const result = await extract('v2', {
        urls: [site.url('/products/lamp.html')],
        schema: productSchema,
        webhook: { url: receiver.url, metadata: { run: 'extract' } },
      });
      await waitUntil(() => receiver.bodies.length >= 2, 20_000, 'two webhook deliveries');
      const types = receiver.bodies.map((body) => body.type).sort();
      expect(types).toEqual(['extract.completed', 'extract.started']);
      const completed = receiver.bodies.find((body) => body.type === 'extract.completed');
      expect(completed).toMatchObject({
        success: true,
        id: expect.any(String),
        metadata: { run: 'extract' },
        data: [{ data: result.data }],
      });
    } finally {
      await receiver.close();
    }
  });
});

describe('POST /v1/extract', () => {
  it('takes v1 options and answers in the same shape', async () => {
    const lamp = site.url('/products/lamp.html');
    const result = await extract('v1', {
      urls: [lamp],
      schema: productSchema,
      __experimental_showSources: true,
      scrapeOptions: { formats: ['markdown'], timeout: 20_000 },
      origin: 'python-sdk@4.53.0',
    });
    expect(result.status).toBe('completed');
    expect(result.data).toEqual({ brand: 'Lumen', products: [{ name: 'Desk Lamp', price: 39.9 }] });
    expect(result.sources.brand).toEqual([lamp]);
  });
});

describe('URLs that cannot be read', () => {
  it('are a 400 (bad URL) or a 403 (refused by the URL policy) without ignoreInvalidURLs', async () => {
    const bad = await tabhive.post('/v2/extract', { urls: ['ftp://files.test/a.csv'], prompt: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      details: [{ message: 'URL uses unsupported protocol', path: ['urls', 0] }],
    });
    const metadata = await tabhive.post('/v2/extract', {
      urls: [site.url('/products/lamp.html'), 'http://169.254.169.254/latest/meta-data/'],
      prompt: 'x',
    });
    expect(metadata.status).toBe(403);
    expect(metadata.json.code).toBe('URL_BLOCKED');
    expect(metadata.json.error).toContain('http://169.254.169.254/latest/meta-data/');
  });

  it('are skipped with a warning that lists them with ignoreInvalidURLs', async () => {
    const result = await extract('v2', {
      urls: [site.url('/products/lamp.html'), 'ftp://files.test/a.csv', 'http://169.254.169.254/'],
      schema: productSchema,
      ignoreInvalidURLs: true,
    });
    expect(result.status).toBe('completed');
    expect(result.data.brand).toBe('Lumen');
    expect(result.warning).toMatch(
      /These URLs were skipped \(ignoreInvalidURLs\): ftp:\/\/files\.test\/a\.csv \(URL uses unsupported protocol\); http:\/\/169\.254\.169\.254\/ \(.*metadata.*\)\./i,
    );
    const nothingLeft = await tabhive.post('/v2/extract', {
      urls: ['ftp://files.test/a.csv'],
      prompt: 'x',
      ignoreInvalidURLs: true,
    });
    expect(nothingLeft.status).toBe(400);
    expect(nothingLeft.json.details[0].message).toMatch(/^No valid URL to extract from/);
  });

  it('refuses a webhook to a metadata address', async () => {
    const response = await tabhive.post('/v2/extract', {
      urls: [site.url('/products/lamp.html')],
      prompt: 'x',
      webhook: 'http://169.254.169.254/hook',
    });
    expect(response.status).toBe(403);
    expect(response.json.error).toMatch(/^Webhook URL refused/);
  });
});

describe('hostile requests', () => {
  it('get clear 4xx answers and leave the server serving', async () => {
    const cases: Array<[unknown, number]> = [
      [{ urls: Array.from({ length: 10_000 }, (_, i) => `https://a.test/${i}`), prompt: 'x' }, 400],
      [{ urls: 'https://a.test', prompt: 'x' }, 400],
      [{ urls: ['https://a.test'], schema: 'not a schema' }, 400],
      [{ urls: ['https://a.test'], prompt: { text: 'x' } }, 400],
      [{ urls: ['https://a.test'] }, 400],
      [{ urls: ['https://a.test'], prompt: 'x', unknownOption: true }, 400],
      [{ urls: ['https://a.test'], prompt: 'x', threatProtection: { mode: 'off' } }, 400],
      [{ urls: ['javascript:alert(1)'], prompt: 'x' }, 400],
      [{ urls: ['https://a.test'], prompt: 'x'.repeat(20_000) }, 400],
      [{ urls: ['https://a.test'], schema: { $ref: '#' } }, 400],
      [
        { urls: ['https://a.test'], schema: { type: 'object', properties: { a: { pattern: '(?=a)' } } } },
        400,
      ],
    ];
    for (const [body, status] of cases) {
      const response = await tabhive.post('/v2/extract', body);
      expect(response.status, JSON.stringify(body).slice(0, 100)).toBe(status);
      expect(response.json.success).toBe(false);
    }

    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { a: deep } };
    const tooDeep = await tabhive.post('/v2/extract', { urls: ['https://a.test'], schema: deep });
    expect(tooDeep.status).toBe(400);
    expect(JSON.stringify(tooDeep.json)).toMatch(/deeper|depth|nest/i);

    const huge = await fetch(`${tabhive.url}/v2/extract`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tabhive.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        urls: ['https://a.test'],
        prompt: 'x',
        schema: { description: 'y'.repeat(11 << 20) },
      }),
    });
    expect(huge.status).toBe(413);

    const notJson = await fetch(`${tabhive.url}/v1/extract`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tabhive.apiKey}`, 'content-type': 'application/json' },
      body: '{"urls": [',
    });
    expect(notJson.status).toBe(400);

    expect((await tabhive.get('/health')).status).toBe(200);
  });
});

describe('GET /v2/extract/:id', () => {
  it("does not show another team's job, nor a job of another kind", async () => {
    const { stores } = tabhive.tabhive;
    await stores.teams.ensure({ id: 'other-team', name: 'Other' });
    const { apiKey: otherKey } = await stores.apiKeys.create({ teamId: 'other-team', label: 'test' });
    const started = await tabhive.post('/v2/extract', {
      urls: [site.url('/products/lamp.html')],
      prompt: 'x',
    });
    const id = started.json.id as string;
    const asOther = await fetch(`${tabhive.url}/v2/extract/${id}`, {
      headers: { authorization: `Bearer ${otherKey}` },
    });
    expect(asOther.status).toBe(404);
    expect(await asOther.json()).toEqual({ success: false, error: 'Job not found' });
    expect((await settled('v2', id)).status).toBe('completed');

    await stores.jobs.create({ _id: 'a-crawl-job', teamId: DEFAULT_TEAM.id, kind: 'crawl', request: {} });
    expect((await tabhive.get('/v2/extract/a-crawl-job')).status).toBe(404);
    expect((await tabhive.get('/v1/extract/no-such-job')).status).toBe(404);
  });

  it('reports a job whose instance stopped answering as failed, saying why', async () => {
    const spec: ExtractSpec = {
      version: 'v2',
      targets: [{ url: site.url('/products/lamp.html'), wildcard: false }],
      prompt: 'x',
      enableWebSearch: false,
      includeSubdomains: true,
      showSources: false,
      scrapeOptions: ScrapeOptionsV2.parse({}),
      warnings: [],
    };
    // As an instance that died mid-job leaves it: running, last written two minutes ago.
    await tabhive.tabhive.stores.jobs.create(
      { _id: 'orphaned-extract', teamId: DEFAULT_TEAM.id, kind: 'extract', request: spec },
      new Date(Date.now() - 120_000),
    );
    const status = await tabhive.get('/v2/extract/orphaned-extract');
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({
      success: true,
      status: 'failed',
      data: null,
      error: expect.stringMatching(/stopped while it ran \(no progress for 60 s\); start the extract again/),
    });
    // The ending is stored: the next read says the same.
    expect((await tabhive.get('/v1/extract/orphaned-extract')).json.status).toBe('failed');
  });
});
