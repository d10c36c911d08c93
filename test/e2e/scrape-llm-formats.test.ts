import Firecrawl from 'firecrawl';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startFakeLlmServer } from '../helpers/fake-llm-server';
import { startFixtureSite } from '../helpers/fixture-site';
import { startTestTabhive } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let llm: Awaited<ReturnType<typeof startFakeLlmServer>>;
/** Without LLM_BASE_URL: the built-in methods. */
let plain: Awaited<ReturnType<typeof startTestTabhive>>;
/** With LLM_BASE_URL pointing at the fake endpoint. */
let withLlm: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startFixtureSite();
  llm = await startFakeLlmServer();
  [plain, withLlm] = await Promise.all([
    startTestTabhive(),
    startTestTabhive({ env: { LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-fake', LLM_MODEL: 'tiny-model' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.stop(), withLlm?.stop()]);
  await llm?.close();
  await site?.close();
});
beforeEach(() => llm.reset());

const productSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number' },
    material: { type: 'string' },
    features: { type: 'array', items: { type: 'string' } },
    color: { type: 'string' },
  },
};

describe('json and summary without an LLM', () => {
  it('fills the schema from the page and bills 5 credits', async () => {
    const { status, json } = await plain.post('/v2/scrape', {
      url: site.url('/product.html'),
      formats: [{ type: 'json', schema: productSchema }],
    });
    expect(status).toBe(200);
    expect(json.data.json).toEqual({
      name: 'Copper Smoker',
      price: 39.9,
      material: 'Copper and leather',
      features: ['Heat shield', 'Hook for the belt'],
    });
    expect(json.data.markdown).toBeUndefined();
    expect(json.data.warning).toBeUndefined();
    expect(json.data.metadata.creditsUsed).toBe(5);
    const stored = await plain.get(`/v2/scrape/${json.data.metadata.scrapeId}`);
    expect(stored.json.data.json).toEqual(json.data.json);
  });

  it('answers a prompt without a schema with the published structured data and a warning', async () => {
    const { json } = await plain.post('/v2/scrape', {
      url: site.url('/product.html'),
      formats: ['markdown', { type: 'json', prompt: 'What does the smoker cost?' }],
    });
    expect(json.data.warning).toMatch(/No LLM is configured/);
    expect(json.data.json.jsonLd).toContainEqual(
      expect.objectContaining({ '@type': 'Product', sku: 'SMK-7' }),
    );
    expect(json.data.markdown).toContain('Copper Smoker');
  });

  it('summarises the page by extraction at no extra cost', async () => {
    const { json } = await plain.post('/v2/scrape', { url: site.url('/product.html'), formats: ['summary'] });
    expect(json.data.summary).toContain('Our copper smoker calms the bees before you open the hive.');
    expect(json.data.metadata.creditsUsed).toBe(1);
  });

  it('works through the JS SDK, whose zod conversion leaves only $schema for zod 4 schemas', async () => {
    const firecrawl = new Firecrawl({ apiKey: plain.apiKey, apiUrl: plain.url });
    const typed = await firecrawl.scrape(site.url('/product.html'), {
      formats: [{ type: 'json', schema: { type: 'object', properties: { name: { type: 'string' } } } }],
    });
    expect(typed.json).toEqual({ name: 'Copper Smoker' });
    // The SDK sends {"$schema": "…draft-07…"}: a schema that allows anything gets the published data.
    const open = await firecrawl.scrape(site.url('/product.html'), {
      formats: [{ type: 'json', schema: z.object({ name: z.string() }) }],
    });
    expect(open.json).toMatchObject({ jsonLd: expect.any(Array) });
  });

  it('refuses an unusable schema with a 400', async () => {
    const { status, json } = await plain.post('/v2/scrape', {
      url: site.url('/product.html'),
      formats: [
        { type: 'json', schema: { type: 'object', properties: { a: { $ref: 'http://127.0.0.1:1/x' } } } },
      ],
    });
    expect(status).toBe(400);
    expect(json).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      error: expect.stringMatching(/^Bad Request: formats\[0\]\.schema: Invalid schema/),
    });
    expect(JSON.stringify(json.details)).toContain('Invalid schema');
  });

  it('books every scrape once on the team ledger', async () => {
    const { json } = await plain.post('/v2/scrape', { url: site.url('/product.html'), formats: ['json'] });
    const entries = await plain.tabhive.stores.creditLedger.entriesForTeam('default');
    expect(entries).toContainEqual(
      expect.objectContaining({ _id: `scrape:${json.data.metadata.scrapeId}`, credits: 5 }),
    );
  });
});

describe('json and summary with an OpenAI-compatible LLM', () => {
  it('sends the page and the schema to the model and returns its validated answer', async () => {
    llm.answer('{"name":"Copper Smoker","price":39.9}');
    const { status, json } = await withLlm.post('/v2/scrape', {
      url: site.url('/product.html'),
      formats: [{ type: 'json', schema: productSchema, prompt: 'Name and price only' }],
    });
    expect(status).toBe(200);
    expect(json.data.json).toEqual({ name: 'Copper Smoker', price: 39.9 });
    expect(llm.requests).toHaveLength(1);
    const [request] = llm.requests;
    expect(request?.authorization).toBe('Bearer sk-fake');
    expect(request?.body).toMatchObject({ model: 'tiny-model', response_format: { type: 'json_object' } });
    const prompt = request?.body.messages.at(-1)?.content ?? '';
    expect(prompt).toContain('Name and price only');
    expect(prompt).toContain('"material":{"type":"string"}');
    expect(prompt).toContain('Our copper smoker calms the bees');
  });

  it('retries an answer that fails the schema, then fails the scrape clearly', async () => {
    llm.answer('{"price":"cheap"}', '{"price":"still cheap"}');
    const { status, json } = await withLlm.post('/v2/scrape', {
      url: site.url('/product.html'),
      formats: [{ type: 'json', schema: productSchema }],
    });
    expect(llm.requests).toHaveLength(2);
    expect(status).toBe(500);
    expect(json.success).toBe(false);
    expect(json.code).toBeUndefined();
    expect(json.error).toMatch(
      /^\(Internal server error\) - LLM extraction failed: the answer did not match the schema/,
    );
  });

  it('extracts the values of json change tracking with the model, at the json price', async () => {
    llm.answer('{"price":39.9}');
    const { json } = await withLlm.post('/v2/scrape', {
      url: site.url('/product.html?tracking'),
      formats: [
        'markdown',
        {
          type: 'changeTracking',
          modes: ['json'],
          prompt: 'Track the price',
          schema: { type: 'object', properties: { price: { type: 'number' } } },
        },
      ],
    });
    expect(json.data.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });
    expect(json.data.metadata.creditsUsed).toBe(5);
    const prompt = llm.requests[0]?.body.messages.at(-1)?.content ?? '';
    expect(prompt).toContain('Track the price');
    expect(prompt).toContain('"price":{"type":"number"}');
  });

  it('does not send the page to the model under zero data retention', async () => {
    const { json } = await withLlm.post('/v2/scrape', {
      url: site.url('/product.html'),
      formats: ['summary'],
      zeroDataRetention: true,
    });
    expect(llm.requests).toHaveLength(0);
    expect(json.data.summary).toContain('Our copper smoker calms the bees');
    expect(json.data.warning).toMatch(/not sent to the LLM/);
  });

  it('asks the model for the summary, and falls back to extraction when it fails', async () => {
    llm.answer('A copper smoker for beekeepers.');
    const first = await withLlm.post('/v2/scrape', { url: site.url('/product.html'), formats: ['summary'] });
    expect(first.json.data.summary).toBe('A copper smoker for beekeepers.');

    llm.answer({ status: 503, body: '{"error":"overloaded"}' });
    const second = await withLlm.post('/v2/scrape', { url: site.url('/product.html'), formats: ['summary'] });
    expect(second.status).toBe(200);
    expect(second.json.data.summary).toContain('Our copper smoker calms the bees');
    expect(second.json.data.warning).toMatch(/The LLM summary failed \(the LLM endpoint answered 503/);
  });
});
