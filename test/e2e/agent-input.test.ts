import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlmServer } from '../helpers/scripted-llm-server';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

type Tabhive = Awaited<ReturnType<typeof startTestTabhive>>;

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('agent and deep research without a model', () => {
  let tabhive: Tabhive;
  beforeAll(async () => {
    tabhive = await startTestTabhive({ browsers: 0 });
  });
  afterAll(async () => tabhive?.stop());

  it('refuses to start with a 400 that says what to configure', async () => {
    for (const [path, body] of [
      ['/v2/agent', { prompt: 'Find the price' }],
      ['/v1/deep-research', { query: 'What is a bee?' }],
    ] as const) {
      const { status, json } = await tabhive.post(path, body);
      expect(status).toBe(400);
      expect(json).toMatchObject({ success: false, code: 'LLM_NOT_CONFIGURED' });
      expect(json.error).toContain('LLM_BASE_URL');
      expect(json.error).toContain('tool calling');
    }
  });

  it('still answers reads: an empty list, unknown runs not found', async () => {
    expect((await tabhive.get('/v2/agent')).json).toEqual({ success: true, agents: [] });
    expect((await tabhive.get(`/v2/agent/${UNKNOWN_ID}`)).status).toBe(404);
  });
});

describe('agent and deep research with hostile input', () => {
  let tabhive: Tabhive;
  let llm: Awaited<ReturnType<typeof startScriptedLlmServer>>;
  let otherKey: string;

  beforeAll(async () => {
    llm = await startScriptedLlmServer({ fallback: { content: '{"done": true}' } });
    tabhive = await startTestTabhive({ browsers: 0, env: { LLM_BASE_URL: llm.baseUrl } });
    const stores = tabhive.tabhive.stores;
    await stores.teams.ensure({ id: 'other', name: 'other' });
    otherKey = (await stores.apiKeys.create({ teamId: 'other', label: 'e2e' })).apiKey;
  });
  afterAll(async () => {
    await tabhive?.stop();
    await llm?.close();
  });

  const refused = async (path: string, body: unknown) => {
    const { status, json } = await tabhive.post(path, body);
    expect(status, JSON.stringify(body).slice(0, 200)).toBe(400);
    expect(json.success).toBe(false);
    return json;
  };

  it('refuses bad agent bodies with Firecrawl 400s that name the problem', async () => {
    await refused('/v2/agent', {});
    await refused('/v2/agent', { prompt: '   ' });
    await refused('/v2/agent', { prompt: 'x'.repeat(10_001) });
    await refused('/v2/agent', { prompt: 'p', urls: ['not a url at all'] });
    await refused('/v2/agent', { prompt: 'p', urls: ['ftp://example.com/'] });
    await refused('/v2/agent', {
      prompt: 'p',
      urls: Array.from({ length: 101 }, (_, i) => `https://e.com/${i}`),
    });
    await refused('/v2/agent', { prompt: 'p', unknownField: 1 });
    await refused('/v2/agent', { prompt: 'p', maxSteps: 31 });
    await refused('/v2/agent', { prompt: 'p', effort: 'extreme' });
    await refused('/v2/agent', { prompt: 'p', webhook: 'javascript:alert(1)' });
    const strict = await refused('/v2/agent', { prompt: 'p', strictConstrainToURLs: true });
    expect(JSON.stringify(strict.details)).toContain('strictConstrainToURLs needs urls');
    const small = await refused('/v2/agent', { prompt: 'p', maxCredits: 1 });
    expect(JSON.stringify(small.details)).toContain('maxCredits must be at least 3');
    const thread = await refused('/v2/agent', { prompt: 'p', threadId: 'abc' });
    expect(JSON.stringify(thread.details)).toContain('every agent run stands alone');
    const schema = await refused('/v2/agent', { prompt: 'p', schema: { type: 'not-a-type' } });
    expect(JSON.stringify(schema.details)).toContain('Invalid schema');
    await refused('/v2/agent', { prompt: 'p', schema: [1, 2] });
    let deep: unknown = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { a: deep } };
    await refused('/v2/agent', { prompt: 'p', schema: deep });
    expect(llm.requests).toHaveLength(0);
  });

  it('refuses bad deep research bodies', async () => {
    await refused('/v1/deep-research', {});
    await refused('/v1/deep-research', { query: 'q', maxDepth: 11 });
    await refused('/v1/deep-research', { query: 'q', timeLimit: 5 });
    await refused('/v1/deep-research', { query: 'q', maxUrls: 0 });
    await refused('/v1/deep-research', { query: 'q', formats: ['html'] });
    await refused('/v1/deep-research', { query: 'q', jsonOptions: { schema: 'string' } });
    await refused('/v1/deep-research', { query: 'x'.repeat(10_001) });
    expect(llm.requests).toHaveLength(0);
  });

  it('answers 404 for bad ids, unknown runs and other teams’ runs, on every read', async () => {
    const started = await tabhive.post('/v2/agent', { prompt: 'Say done' });
    expect(started.status).toBe(200);
    const id = started.json.id as string;
    await waitUntil(
      async () => (await tabhive.get(`/v2/agent/${id}`)).json.status === 'completed',
      20_000,
      'the run',
    );
    const research = await tabhive.post('/v1/deep-research', { query: 'q', maxDepth: 1 });
    expect(research.status).toBe(200);

    const asOther = (path: string, method = 'GET') =>
      fetch(`${tabhive.url}${path}`, { method, headers: { authorization: `Bearer ${otherKey}` } });
    for (const path of [
      `/v2/agent/${id}`,
      `/v2/agent/${id}/trace`,
      `/v2/agent/threads/${id}`,
      `/v2/agent/${id}/snapshots/answer`,
    ]) {
      const other = await asOther(path);
      expect(other.status, path).toBe(404);
      expect(await other.json()).toMatchObject({ success: false, error: 'Job not found' });
    }
    expect((await asOther(`/v2/agent/${id}`, 'DELETE')).status).toBe(404);
    expect((await asOther(`/v1/deep-research/${research.json.id}`)).status).toBe(404);
    expect((await (await asOther('/v2/agent')).json()).agents).toEqual([]);

    for (const bad of ['not-an-id', UNKNOWN_ID, '..%2F..%2Fetc', 'x'.repeat(500)]) {
      expect((await tabhive.get(`/v2/agent/${bad}`)).status, bad).toBe(404);
      expect((await tabhive.get(`/v2/agent/${bad}/trace`)).status, bad).toBe(404);
      expect((await tabhive.get(`/v1/deep-research/${bad}`)).status, bad).toBe(404);
    }
    // An agent id is not a deep research id, nor the other way round.
    expect((await tabhive.get(`/v1/deep-research/${id}`)).status).toBe(404);
    expect((await tabhive.get(`/v2/agent/${research.json.id}`)).status).toBe(404);

    expect((await tabhive.get(`/v2/agent/${id}/snapshots/other`)).status).toBe(404);
    expect((await tabhive.get('/v2/agent?before=yesterday')).status).toBe(400);
  });
});
