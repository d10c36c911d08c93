import Firecrawl, { FirecrawlAppV1 } from 'firecrawl';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
// The zod the SDK depends on (3.x), as a project using the SDK with zod 3 passes its schemas.
import { z as zod3 } from '../../node_modules/firecrawl/node_modules/zod/index.js';
import { startAgentSite } from '../helpers/agent-site';
import { startFakeSearxng } from '../helpers/fake-searxng';
import { startScriptedLlmServer } from '../helpers/scripted-llm-server';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/** The v1 client's jsonOptions type, named without comparing zod 3's types against it. */
type DeepResearchJsonOptions = Parameters<FirecrawlAppV1['asyncDeepResearch']>[1]['jsonOptions'];

/**
 * The official `firecrawl` npm package's agent methods (startAgent, getAgentStatus, agent(),
 * cancelAgent, listAgents, getAgentTrace, getAgentThread, getAgentSnapshot) and FirecrawlAppV1's
 * deep research against a whole Tabhive whose model is scripted: what is asserted is what the
 * SDK hands its caller.
 */

let site: Awaited<ReturnType<typeof startAgentSite>>;
let searxng: Awaited<ReturnType<typeof startFakeSearxng>>;
let llm: Awaited<ReturnType<typeof startScriptedLlmServer>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let firecrawl: Firecrawl;
let v1: FirecrawlAppV1;

beforeAll(async () => {
  site = await startAgentSite();
  searxng = await startFakeSearxng({
    results: () => ({
      general: [
        { url: site.url('/shop/widget.html'), title: 'Honey Widget', content: 'A widget that stirs honey' },
      ],
    }),
  });
  llm = await startScriptedLlmServer();
  tabhive = await startTestTabhive({ env: { LLM_BASE_URL: llm.baseUrl, SEARXNG_URL: searxng.url } });
  firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
  v1 = new FirecrawlAppV1({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
});
afterAll(async () => {
  await tabhive?.stop();
  await llm?.close();
  await searxng?.close();
  await site?.close();
});
beforeEach(() => llm.reset());

describe('the firecrawl JS SDK agent methods', () => {
  it('agent() runs to completion with a zod schema, and the run reads back through every method', async () => {
    const widget = site.url('/shop/widget.html');
    llm.script(
      { toolCalls: [{ name: 'scrape', arguments: { url: widget } }] },
      { content: '{"name": "Honey Widget", "price": 12.5}' },
    );
    const result = await firecrawl.agent({
      prompt: 'What does the Honey Widget cost?',
      urls: [site.url('/shop/')],
      // A Zod schema at run time, as a caller passes one; typed loosely because checking zod 3's
      // ZodObject against the SDK's `Record<string, unknown> | ZodTypeAny` makes tsc run for many minutes.
      schema: zod3.object({ name: zod3.string(), price: zod3.number() }) as unknown as Record<
        string,
        unknown
      >,
      maxCredits: 50,
      model: 'spark-1-mini',
      pollInterval: 1,
      timeout: 60,
    });
    expect(result).toMatchObject({
      success: true,
      status: 'completed',
      data: { name: 'Honey Widget', price: 12.5 },
      creditsUsed: 3,
      mode: 'extract',
    });
    expect(Date.parse(result.expiresAt)).toBeGreaterThan(Date.now());
    // The SDK converted the zod schema to JSON Schema on the wire.
    expect(llm.requests[0]!.messages[1]!.content).toContain('"price":{"type":"number"}');

    const id = (await firecrawl.listAgents()).agents![0]!.id;
    const status = await firecrawl.getAgentStatus(id);
    expect(status).toMatchObject({ status: 'completed', data: { name: 'Honey Widget', price: 12.5 } });

    const trace = await firecrawl.getAgentTrace(id);
    expect(trace.success).toBe(true);
    const calls = trace.events!.filter((event) => event.type === 'tool_call.started');
    expect(calls).toEqual([expect.objectContaining({ toolName: 'scrape', parameters: { url: widget } })]);
    expect(trace.creditsUsed).toBe(3);
    expect((await firecrawl.getAgentTrace(id, { liveView: true })).activeBrowserSessions).toEqual([]);

    const list = await firecrawl.listAgents();
    expect(list.agents![0]).toMatchObject({
      id,
      status: 'completed',
      options: { prompt: 'What does the Honey Widget cost?', model: 'spark-1-mini' },
    });
    const thread = await firecrawl.getAgentThread(status.threadId!, { includeData: true });
    expect(thread.thread!.runs[0]).toMatchObject({
      id,
      status: 'succeeded',
      data: { name: 'Honey Widget', price: 12.5 },
    });
    const snapshot = await firecrawl.getAgentSnapshot(id, 'answer');
    expect(JSON.parse(snapshot.snapshot!)).toEqual({ name: 'Honey Widget', price: 12.5 });
  });

  it('startAgent and cancelAgent: a cancelled run stops and reads failed', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    llm.script(async () => {
      await held;
      return { content: '{}' };
    });
    const started = await firecrawl.startAgent({ prompt: 'Take your time' });
    expect(started).toMatchObject({ success: true, threadId: started.id, threadTurn: 1 });
    await waitUntil(() => llm.requests.length === 1, 10_000, 'the model call');
    expect(await firecrawl.cancelAgent(started.id)).toBe(true);
    release();
    const status = await firecrawl.getAgentStatus(started.id);
    expect(status).toMatchObject({ status: 'failed', error: 'The agent run was cancelled.' });
  });

  it('a server without a model is a clear error', async () => {
    const bare = await startTestTabhive({ browsers: 0 });
    try {
      const client = new Firecrawl({ apiKey: bare.apiKey, apiUrl: bare.url });
      await expect(client.startAgent({ prompt: 'anything' })).rejects.toThrow(/LLM_BASE_URL/);
    } finally {
      await bare.stop();
    }
  });
});

describe('the firecrawl JS SDK v1 deep research', () => {
  it('deepResearch() polls to the final analysis, calling back with activities and sources', async () => {
    const widget = site.url('/shop/widget.html');
    llm.script(
      { toolCalls: [{ name: 'search', arguments: { query: 'honey widget price' } }] },
      { toolCalls: [{ name: 'scrape', arguments: { url: widget } }] },
      { content: 'Done.' },
      { content: 'The Honey Widget costs $12.50.' },
    );
    const activities: Array<{ type: string }> = [];
    const sources: Array<{ url: string }> = [];
    const result = await v1.deepResearch(
      'What does the Honey Widget cost?',
      { maxDepth: 4, timeLimit: 60, maxUrls: 3 },
      (activity) => activities.push(activity),
      (source) => sources.push(source),
    );
    expect(result).toMatchObject({
      success: true,
      status: 'completed',
      data: { finalAnalysis: 'The Honey Widget costs $12.50.' },
      maxDepth: 4,
    });
    expect(sources.map((source) => source.url)).toEqual([widget]);
    expect(activities.map((activity) => activity.type)).toEqual(
      expect.arrayContaining(['search', 'extract']),
    );
  });

  it('asyncDeepResearch and checkDeepResearchStatus, with a JSON answer', async () => {
    llm.script(
      { content: 'Nothing to search.' },
      { content: 'Bees make honey.' },
      { content: '{"answer": "honey"}' },
    );
    const started = await v1.asyncDeepResearch('What do bees make?', {
      maxDepth: 1,
      formats: ['markdown', 'json'],
      // A Zod schema at run time; typed through `unknown` for the reason given above.
      jsonOptions: { schema: zod3.object({ answer: zod3.string() }) } as unknown as DeepResearchJsonOptions,
    });
    expect(started).toMatchObject({ success: true });
    const id = (started as { id: string }).id;
    let status = await v1.checkDeepResearchStatus(id);
    await waitUntil(
      async () => {
        status = await v1.checkDeepResearchStatus(id);
        return 'status' in status && status.status !== 'processing';
      },
      30_000,
      'the research',
    );
    expect(status).toMatchObject({
      status: 'completed',
      data: { finalAnalysis: 'Bees make honey.', json: { answer: 'honey' } },
      currentDepth: 1,
      maxDepth: 1,
    });
  });
});
