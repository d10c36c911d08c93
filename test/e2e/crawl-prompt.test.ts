import Firecrawl from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../helpers/fake-llm-server';
import { startTestTabhive } from '../helpers/start-test-tabhive';

type Tabhive = Awaited<ReturnType<typeof startTestTabhive>>;

// No page is scraped here: the answers to preview and crawl requests come before any browser work.
let rules: Tabhive;
let withLlm: Tabhive;
let llm: Awaited<ReturnType<typeof startFakeLlmServer>>;
const SITE = 'https://docs.example.com/';

beforeAll(async () => {
  llm = await startFakeLlmServer();
  rules = await startTestTabhive({ browsers: 0 });
  withLlm = await startTestTabhive({ browsers: 0, env: { LLM_BASE_URL: llm.baseUrl } });
});
afterAll(async () => {
  await rules?.stop();
  await withLlm?.stop();
  await llm?.close();
});

describe('POST /v2/crawl/params-preview without a model', () => {
  it('reads the prompt with the built-in rules', async () => {
    const response = await rules.post('/v2/crawl/params-preview', {
      url: SITE,
      prompt: 'the docs but not the API reference, up to 50 pages, skip the sitemap',
      origin: 'js-sdk@4.42.0',
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      success: true,
      data: {
        url: SITE,
        limit: 50,
        sitemap: 'skip',
        includePaths: ['/(?:docs|documentation)(?:/|$)'],
        excludePaths: ['/(?:api|api-reference|reference)(?:/|$)'],
      },
    });
  });

  it("answers Firecrawl's errors for a bad body and a prompt it cannot read", async () => {
    const invalid = await rules.post('/v2/crawl/params-preview', { url: 'docs.example.com', prompt: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.json.code).toBe('BAD_REQUEST');
    expect(invalid.json.error).toMatch(/^Invalid request parameters: /);
    const unread = await rules.post('/v2/crawl/params-preview', { url: SITE, prompt: 'hello there' });
    expect(unread.status).toBe(400);
    expect(unread.json).toEqual({
      success: false,
      error: 'Failed to process natural language prompt. Please try rephrasing.',
    });
  });

  it("works through the SDK's crawlParamsPreview()", async () => {
    const firecrawl = new Firecrawl({ apiKey: rules.apiKey, apiUrl: rules.url });
    const data = await firecrawl.crawlParamsPreview(
      SITE,
      'include subdomains, two levels deep, ignore query strings',
    );
    expect(data).toEqual({
      url: SITE,
      allowSubdomains: true,
      maxDiscoveryDepth: 2,
      ignoreQueryParameters: true,
    });
  });
});

describe('POST /v2/crawl with a prompt', () => {
  it('fills in only what the caller left out, and says what it generated and what applies', async () => {
    const response = await rules.post('/v2/crawl', {
      url: SITE,
      prompt: 'only blog posts, up to 50 pages, include subdomains',
      limit: 7,
      allowSubdomains: null,
    });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json.promptGeneratedOptions).toEqual({
      limit: 50,
      allowSubdomains: true,
      includePaths: ['/blog(?:/|$)'],
    });
    expect(response.json.finalCrawlerOptions).toMatchObject({
      limit: 7,
      allowSubdomains: true,
      includePaths: ['/blog(?:/|$)'],
      sitemap: 'include',
    });
    const ongoing = await rules.get('/v2/crawl/ongoing');
    const crawl = ongoing.json.crawls.find((entry: { id: string }) => entry.id === response.json.id);
    expect(crawl.options).toMatchObject({ limit: 7, allowSubdomains: true, includePaths: ['/blog(?:/|$)'] });
  });

  it('refuses a prompt it cannot read, before creating a job; an empty prompt is ignored', async () => {
    const refused = await rules.post('/v2/crawl', { url: SITE, prompt: 'lorem ipsum' });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toBe(
      'Failed to process natural language prompt. Please try rephrasing or use explicit crawler options.',
    );
    const empty = await rules.post('/v2/crawl', { url: SITE, prompt: '' });
    expect(empty.status).toBe(200);
    expect(empty.json).not.toHaveProperty('promptGeneratedOptions');
  });
});

describe('with a model configured', () => {
  it('asks the model, keeps its valid options and drops a pattern RE2 cannot run', async () => {
    llm.reset();
    llm.answer(
      JSON.stringify({
        includePaths: ['blog/.*', '(?<=x)'],
        limit: '12',
        maxDiscoveryDepth: 3,
        unknown: true,
      }),
    );
    const response = await withLlm.post('/v2/crawl/params-preview', {
      url: SITE,
      prompt: 'Blog posts, three deep',
    });
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({ url: SITE, includePaths: ['blog/.*'], maxDiscoveryDepth: 3 });
    expect(response.json.warning).toContain('includePaths');
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]!.body.messages.at(-1)!.content).toContain('Blog posts, three deep');
  });

  it('falls back to the rules when the model fails, and says so', async () => {
    llm.reset();
    llm.answer({ status: 500, body: '{"error":"down"}' });
    const response = await withLlm.post('/v2/crawl/params-preview', { url: SITE, prompt: 'up to 5 pages' });
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({ url: SITE, limit: 5 });
    expect(response.json.warning).toMatch(/built-in rules because the model failed/);
  });

  it('crawls with what the model generated', async () => {
    llm.reset();
    llm.answer(JSON.stringify({ excludePaths: ['^/changelog'], sitemap: 'skip' }));
    const response = await withLlm.post('/v2/crawl', {
      url: SITE,
      prompt: 'Everything but the changelog, no sitemap',
    });
    expect(response.status).toBe(200);
    expect(response.json.promptGeneratedOptions).toEqual({ excludePaths: ['^/changelog'], sitemap: 'skip' });
    expect(response.json.finalCrawlerOptions).toMatchObject({
      excludePaths: ['^/changelog'],
      sitemap: 'skip',
    });
  });
});
