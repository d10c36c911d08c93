import Firecrawl, { FirecrawlAppV1 } from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The zod the SDK depends on (3.x), as a project using the SDK with zod 3 passes its schemas.
import { z as zod3 } from '../../node_modules/firecrawl/node_modules/zod/index.js';
import { startExtractSite } from '../integration/extract/extract-site';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * The official `firecrawl` npm package's extract methods against a whole Tabhive (no LLM: the
 * built-in filling and merge), v2 (`extract`, `startExtract`, `getExtractStatus`) and v1
 * (`FirecrawlAppV1.extract`, `asyncExtract`, `getExtractStatus`). What is asserted is what the
 * SDK hands its caller.
 */

let site: Awaited<ReturnType<typeof startExtractSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let firecrawl: Firecrawl;
let v1: FirecrawlAppV1;

beforeAll(async () => {
  site = await startExtractSite();
  tabhive = await startTestTabhive({ browsers: 1 });
  firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
  v1 = new FirecrawlAppV1({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

const jsonSchema = {
  type: 'object',
  properties: {
    brand: { type: 'string' },
    products: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
    },
  },
  required: ['brand', 'products'],
};

const bothProducts = [
  { name: 'Desk Lamp', price: 39.9 },
  { name: 'Office Chair', price: 129 },
];

const catalog = zod3.object({
  brand: zod3.string(),
  products: zod3.array(zod3.object({ name: zod3.string(), price: zod3.number() })),
});

describe('JS SDK v2 client: extract', () => {
  it('extract() with a zod schema and showSources waits for the job and answers data and sources', async () => {
    const lamp = site.url('/products/lamp.html');
    const chair = site.url('/products/chair.html');
    const result = await firecrawl.extract({
      urls: [lamp, chair],
      // The SDK's own zod (3.x) type is too deep for TypeScript to compare with its signature here.
      schema: catalog as unknown as Record<string, unknown>,
      showSources: true,
      pollInterval: 1,
      timeout: 60,
    });
    expect(result.success).toBe(true);
    expect(result.status).toBe('completed');
    expect(result.data).toEqual({ brand: 'Lumen', products: bothProducts });
    expect(result.sources).toEqual({
      brand: [lamp],
      'products[0].name': [lamp],
      'products[0].price': [lamp],
      'products[1].name': [chair],
      'products[1].price': [chair],
    });
    expect(result.creditsUsed).toBe(10);
    expect(typeof result.expiresAt).toBe('string');
  });

  it('startExtract() answers the id, getExtractStatus() the job as it runs and ends', async () => {
    const started = await firecrawl.startExtract({
      urls: [site.url('/many/*')],
      prompt: 'The products and their prices',
      schema: jsonSchema,
      scrapeOptions: { onlyMainContent: true, timeout: 30_000 },
      ignoreInvalidURLs: true,
    });
    expect(started.success).toBe(true);
    expect(typeof started.id).toBe('string');
    let status = await firecrawl.getExtractStatus(started.id as string);
    expect(['processing', 'completed']).toContain(status.status);
    const deadline = Date.now() + 60_000;
    while (status.status === 'processing' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = await firecrawl.getExtractStatus(started.id as string);
    }
    expect(status.status).toBe('completed');
    expect((status.data as { products: unknown[] }).products).toHaveLength(24);
    expect((status.data as { brand: string }).brand).toBe('Lumen');
    expect(status.warning).toContain('the first 25 were read (at most 25 per wildcard URL)');
    expect(status.warning).toContain('No LLM is configured');
    expect(status.sources).toBeUndefined();
  });

  it("getExtractStatus() of an unknown job throws the SDK's error", async () => {
    await expect(firecrawl.getExtractStatus('00000000-0000-4000-8000-000000000000')).rejects.toThrow(
      /Job not found/,
    );
  });
});

describe('JS SDK v1 client (FirecrawlAppV1): extract', () => {
  it('extract() posts, polls and answers the data, warning and sources', async () => {
    const lamp = site.url('/products/lamp.html');
    const result = await v1.extract([lamp, site.url('/products/chair.html')], {
      schema: jsonSchema,
      prompt: 'The brand and products',
      showSources: true,
    });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data).toEqual({ brand: 'Lumen', products: bothProducts });
    expect(result.warning).toContain('No LLM is configured');
    expect((result.sources as unknown as Record<string, string[]>).brand).toEqual([lamp]);
  });

  it('asyncExtract() answers the id, and getExtractStatus() the finished job', async () => {
    const started = await v1.asyncExtract([site.url('/products/chair.html')], { schema: jsonSchema });
    expect(started.success).toBe(true);
    // The v1 typings leave `id` out of ExtractResponse; the wire has it, and asyncExtract returns the body.
    const id = (started as unknown as { id: string }).id;
    expect(typeof id).toBe('string');
    let status = await v1.getExtractStatus(id);
    const deadline = Date.now() + 60_000;
    while (status.status === 'processing' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = await v1.getExtractStatus(id);
    }
    expect(status).toMatchObject({
      success: true,
      status: 'completed',
      data: { brand: 'Sitwell', products: [{ name: 'Office Chair', price: 129 }] },
      creditsUsed: 5,
    });
  });

  it('extract() of a refused URL throws (the v1 client keeps only axios’s status line)', async () => {
    await expect(v1.extract(['http://169.254.169.254/latest/'], { prompt: 'x' })).rejects.toThrow(
      /status code 403/,
    );
  });
});
