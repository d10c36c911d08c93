import { FirecrawlAppV1 } from 'firecrawl';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../helpers/fake-llm-server';
import { startFixtureSite } from '../helpers/fixture-site';
import { startTestTabhive } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let llm: Awaited<ReturnType<typeof startFakeLlmServer>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startFixtureSite();
  llm = await startFakeLlmServer();
  tabhive = await startTestTabhive({ env: { LLM_BASE_URL: llm.baseUrl } });
});
afterAll(async () => {
  await tabhive?.stop();
  await llm?.close();
  await site?.close();
});
beforeEach(() => llm.reset());

const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

describe('POST /v1/scrape', () => {
  it('scrapes with the v1 defaults: no cache read, so no cacheState', async () => {
    const url = site.url('/docs/getting-started.html?v1');
    await tabhive.post('/v1/scrape', { url });
    const { status, json } = await tabhive.post('/v1/scrape', { url });
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    expect(json.data.markdown).toContain('Getting started');
    expect(json.data.metadata).toMatchObject({
      sourceURL: url,
      statusCode: 200,
      creditsUsed: 1,
      proxyUsed: 'basic',
    });
    expect(json.data.metadata.cacheState).toBeUndefined();
  });

  it('answers the extract format in data.extract and the json format in data.json', async () => {
    llm.answer('{"name":"Copper Smoker"}', '{"name":"Copper Smoker"}');
    const extract = await tabhive.post('/v1/scrape', {
      url: site.url('/product.html'),
      formats: ['extract'],
      extract: { schema, systemPrompt: 'replaced by ours' },
    });
    expect(extract.json.data.extract).toEqual({ name: 'Copper Smoker' });
    expect(extract.json.data.json).toBeUndefined();
    expect(extract.json.data.metadata.creditsUsed).toBe(5);
    expect(llm.requests[0]?.body.messages[0]?.content).not.toContain('replaced by ours');

    const json = await tabhive.post('/v1/scrape', {
      url: site.url('/product.html'),
      formats: ['json', 'markdown'],
      jsonOptions: { schema, prompt: 'the product name' },
    });
    expect(json.json.data.json).toEqual({ name: 'Copper Smoker' });
    expect(json.json.data.extract).toBeUndefined();
    expect(json.json.data.markdown).toContain('Copper Smoker');

    // The stored result is the v1 document as answered.
    const stored = await tabhive.get(`/v1/scrape/${extract.json.data.metadata.scrapeId}`);
    expect(JSON.stringify(stored.json.data)).toBe(JSON.stringify(extract.json.data));
  });

  it('gives internal errors without a code UNKNOWN_ERROR', async () => {
    llm.answer('no json', 'still no json');
    const { status, json } = await tabhive.post('/v1/scrape', {
      url: site.url('/product.html'),
      formats: ['json'],
      jsonOptions: { schema },
    });
    expect(status).toBe(500);
    expect(json).toMatchObject({ success: false, code: 'UNKNOWN_ERROR' });
    expect(json.error).toMatch(/LLM extraction failed: the answer was not valid JSON, also after a retry/);
  });

  it('refuses invalid v1 bodies with Firecrawl’s 400 and v1 wording', async () => {
    const missing = await tabhive.post('/v1/scrape', { url: site.url('/'), formats: ['json'] });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      error: expect.stringMatching(/^Bad Request: /),
    });
    expect(JSON.stringify(missing.json.details)).toContain(
      "When 'extract' or 'json' format is specified, corresponding options must be provided, and vice versa",
    );
    const objects = await tabhive.post('/v1/scrape', { url: site.url('/'), formats: [{ type: 'markdown' }] });
    expect(objects.status).toBe(400);
    const unknown = await tabhive.post('/v1/scrape', { url: site.url('/'), parsers: ['pdf'] });
    expect(unknown.json.details).toContainEqual(
      expect.objectContaining({
        code: 'unrecognized_keys',
        message:
          'Unrecognized key in body -- please review the v1 API documentation for request body changes',
      }),
    );
  });

  it('accepts the FIRE-1 agent and says it was not used', async () => {
    const { status, json } = await tabhive.post('/v1/scrape', {
      url: site.url('/'),
      agent: { model: 'FIRE-1', prompt: 'click around' },
    });
    expect(status).toBe(200);
    expect(json.data.warning).toMatch(/FIRE-1 agent is not available/);
  });

  it('tracks changes with changeTrackingOptions', async () => {
    const url = site.url('/index.html?v1-tracking');
    const body = {
      url,
      formats: ['markdown', 'changeTracking'],
      changeTrackingOptions: { modes: ['git-diff'] },
    };
    expect((await tabhive.post('/v1/scrape', body)).json.data.changeTracking.changeStatus).toBe('new');
  });
});

describe('the Firecrawl JS SDK v1 client', () => {
  it('scrapeUrl() returns the flattened document', async () => {
    const app = new FirecrawlAppV1({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
    const result = await app.scrapeUrl(site.url('/product.html'), { formats: ['markdown', 'links'] });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.markdown).toContain('Copper Smoker');
    expect(Array.isArray(result.links)).toBe(true);
    expect(result.metadata?.sourceURL).toBe(site.url('/product.html'));
  });
});
