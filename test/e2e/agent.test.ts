import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAgentSite } from '../helpers/agent-site';
import { startFakeSearxng } from '../helpers/fake-searxng';
import { startScriptedLlmServer, toolResults } from '../helpers/scripted-llm-server';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

type Tabhive = Awaited<ReturnType<typeof startTestTabhive>>;

let site: Awaited<ReturnType<typeof startAgentSite>>;
let searxng: Awaited<ReturnType<typeof startFakeSearxng>>;
let llm: Awaited<ReturnType<typeof startScriptedLlmServer>>;
let tabhive: Tabhive;
let receiver: Server;
let receiverUrl: string;
const deliveries: Array<{ type: string; id: string; data: unknown[] }> = [];

beforeAll(async () => {
  site = await startAgentSite();
  searxng = await startFakeSearxng({
    results: () => ({
      general: [
        { url: site.url('/shop/widget.html'), title: 'Honey Widget', content: 'A widget that stirs honey' },
        { url: site.url('/outside.html'), title: 'Outside', content: 'Not the shop' },
      ],
    }),
  });
  llm = await startScriptedLlmServer();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof deliveries)[number]);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  tabhive = await startTestTabhive({
    env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'scripted-model', SEARXNG_URL: searxng.url },
    webhookRetryDelaysMs: [200],
  });
}, 60_000);
afterAll(async () => {
  await tabhive?.stop();
  await llm?.close();
  await searxng?.close();
  await site?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});
beforeEach(() => llm.reset());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent
type Body = any;

/** Starts an agent run and waits until it has ended; answers the status body. */
async function runAgent(body: Record<string, unknown>): Promise<{ id: string; status: Body }> {
  const started = await tabhive.post('/v2/agent', body);
  expect(started.status, JSON.stringify(started.json)).toBe(200);
  const id = started.json.id as string;
  let status: Body;
  await waitUntil(
    async () => {
      status = (await tabhive.get(`/v2/agent/${id}`)).json;
      return status.status !== 'processing';
    },
    50_000,
    'the agent run to end',
  );
  return { id, status };
}

const traceOf = async (id: string): Promise<Body[]> =>
  (await tabhive.get(`/v2/agent/${id}/trace`)).json.events;

describe('the agent loop', () => {
  it('plans with tool calls, acts with search, scrape and interact, and answers data that fits the schema', async () => {
    const widget = site.url('/shop/widget.html');
    const reveal = site.url('/shop/reveal.html');
    llm.script(
      { toolCalls: [{ name: 'search', arguments: { query: 'honey widget price', limit: 2 } }] },
      {
        toolCalls: [{ name: 'scrape', arguments: { url: widget } }],
        content: 'The first result is the product.',
      },
      {
        toolCalls: [
          { name: 'interact', arguments: { url: reveal, actions: [{ type: 'click', selector: '#show' }] } },
        ],
      },
      { content: JSON.stringify({ name: 'Honey Widget', price: 12.5, code: 'BEE-42' }) },
    );
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, price: { type: 'number' }, code: { type: 'string' } },
      required: ['name', 'price', 'code'],
    };
    const { id, status } = await runAgent({
      prompt: 'Find the Honey Widget price and the discount code',
      schema,
      webhook: { url: receiverUrl, metadata: { run: 'loop' } },
    });

    expect(status).toMatchObject({
      success: true,
      status: 'completed',
      data: { name: 'Honey Widget', price: 12.5, code: 'BEE-42' },
      stopReason: 'completed',
      model: 'scripted-model',
      mode: 'extract',
    });
    // Search: 2 results at 1 credit each; two pages at 1 credit; four model calls at 1 credit.
    expect(status.creditsUsed).toBe(2 + 2 + 4);

    // What the model was shown: the tools, then each tool's result in turn.
    expect(llm.requests).toHaveLength(4);
    expect(llm.requests[0]!.tools!.map((tool) => tool.function.name)).toEqual([
      'search',
      'map',
      'scrape',
      'interact',
    ]);
    expect(toolResults(llm.requests[1]!)[0]).toContain(widget);
    expect(toolResults(llm.requests[2]!)[1]).toContain('Price: $12.50');
    // The code appears only after the click: interact returned the page after its action.
    expect(toolResults(llm.requests[3]!)[2]).toContain('BEE-42');

    const events = await traceOf(id);
    expect(events.map((event) => event.producerSequence)).toEqual(events.map((_, index) => index));
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('run.started');
    expect(types.at(-1)).toBe('run.finished');
    expect(events.at(-1)).toMatchObject({ outcome: 'succeeded', error: null });
    const started = events.filter((event) => event.type === 'tool_call.started');
    expect(started.map((event) => [event.toolName, event.parameters])).toEqual([
      ['search', { query: 'honey widget price', limit: 2 }],
      ['scrape', { url: widget }],
      ['interact', { url: reveal, actions: [{ type: 'click', selector: '#show' }] }],
    ]);
    const finished = events.filter((event) => event.type === 'tool_call.finished');
    expect(finished[0].result).toMatchObject({ query: 'honey widget price', creditsUsed: 2 });
    expect(finished[1].result).toMatchObject({
      url: widget,
      statusCode: 200,
      title: 'Honey Widget',
      creditsUsed: 1,
    });
    expect(events.find((event) => event.type === 'reasoning.summary')?.text).toBe(
      'The first result is the product.',
    );

    await waitUntil(
      () => deliveries.some((d) => d.id === id && d.type === 'agent.completed'),
      20_000,
      'webhooks',
    );
    const mine = deliveries.filter((delivery) => delivery.id === id);
    expect(mine.map((delivery) => delivery.type).sort()).toEqual(
      ['agent.action', 'agent.action', 'agent.action', 'agent.completed', 'agent.started'].sort(),
    );
    expect(mine.find((delivery) => delivery.type === 'agent.completed')?.data).toEqual([
      { data: { name: 'Honey Widget', price: 12.5, code: 'BEE-42' }, stopReason: 'completed' },
    ]);

    const snapshot = await tabhive.get(`/v2/agent/${id}/snapshots/answer`);
    expect(JSON.parse(snapshot.json.snapshot)).toEqual({ name: 'Honey Widget', price: 12.5, code: 'BEE-42' });
  });

  it('refuses pages outside the URLs with strictConstrainToURLs, in the trace and to the model', async () => {
    llm.script(
      { toolCalls: [{ name: 'scrape', arguments: { url: site.url('/outside.html') } }] },
      { toolCalls: [{ name: 'search', arguments: { query: 'honey' } }] },
      { content: '{"found": false}' },
    );
    const before = site.hits('/outside.html');
    const { id, status } = await runAgent({
      prompt: 'What is outside?',
      urls: [site.url('/shop/')],
      strictConstrainToURLs: true,
    });
    expect(status).toMatchObject({ status: 'completed', data: { found: false } });
    expect(site.hits('/outside.html')).toBe(before);
    expect(toolResults(llm.requests[1]!)[0]).toMatch(/^Refused: .*outside\.html is outside the URLs/);
    // The search's result outside the shop was dropped, the one inside kept.
    expect(toolResults(llm.requests[2]!)[1]).toContain(site.url('/shop/widget.html'));
    expect(toolResults(llm.requests[2]!)[1]).not.toContain('/outside.html');
    expect(llm.requests[0]!.messages[1]!.content).toContain('You may only read these URLs');

    const events = await traceOf(id);
    const refused = events.find(
      (event) => event.type === 'tool_call.finished' && event.toolName === 'scrape',
    );
    expect(refused.result).toMatchObject({ refused: true, creditsUsed: 0 });
    expect(events.find((event) => event.type === 'error.occurred')?.error).toMatchObject({
      code: 'refused',
      source: 'tool',
    });
    const search = events.find((event) => event.type === 'tool_call.finished' && event.toolName === 'search');
    expect(search.result).toMatchObject({ results: [site.url('/shop/widget.html')], outOfScope: 1 });
  });

  it('stops at maxCredits and finishes with what it has, saying why', async () => {
    const widget = site.url('/shop/widget.html');
    llm.script(
      { toolCalls: [{ name: 'scrape', arguments: { url: widget } }] },
      { toolCalls: [{ name: 'scrape', arguments: { url: site.url('/shop/') } }] },
      { content: '{"price": 12.5}' },
    );
    const { id, status } = await runAgent({ prompt: 'Price?', maxCredits: 5 });
    // Model call, page (2); model call (3); the second page would leave no room for the answer.
    expect(status).toMatchObject({
      status: 'completed',
      stopReason: 'credit_limit_reached',
      data: { price: 12.5 },
    });
    expect(status.creditsUsed).toBe(4);
    expect(status.creditsUsed).toBeLessThanOrEqual(5);
    expect(llm.requests).toHaveLength(3);
    expect(llm.requests[2]!.tool_choice).toBe('none');
    expect(llm.requests[2]!.messages.at(-1)!.content).toContain('maxCredits');
    const events = await traceOf(id);
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'credit_limit_reached' });
    expect(
      events.some((event) => event.type === 'error.occurred' && event.error.code === 'credit_limit_reached'),
    ).toBe(true);
  });

  it('stops at the step cap and asks for the answer', async () => {
    llm.script(
      { toolCalls: [{ name: 'scrape', arguments: { url: site.url('/shop/') } }] },
      { toolCalls: [{ name: 'scrape', arguments: { url: site.url('/shop/widget.html') } }] },
      { content: '{"pages": 2}' },
    );
    const { status } = await runAgent({ prompt: 'Read the shop', maxSteps: 2 });
    expect(status).toMatchObject({ status: 'completed', stopReason: 'max_steps', data: { pages: 2 } });
    expect(llm.requests).toHaveLength(3);
    expect(llm.requests[2]!.messages.at(-1)!.content).toContain('all 2 turns');
  });

  it('repairs an answer that fails the schema once, and fails clearly after a second', async () => {
    const schema = { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] };
    llm.script({ content: '{"price": "cheap"}' }, { content: '{"price": 12.5}' });
    const repaired = await runAgent({ prompt: 'Price?', schema });
    expect(repaired.status).toMatchObject({ status: 'completed', data: { price: 12.5 } });
    expect(llm.requests[1]!.messages.at(-1)!.content).toContain('does not match the schema');

    llm.reset();
    llm.script({ content: '{"price": "cheap"}' }, { content: 'no idea' });
    const failed = await runAgent({ prompt: 'Price?', schema });
    expect(failed.status.status).toBe('failed');
    expect(failed.status.error).toMatch(/also after one repair attempt: the answer is not valid JSON/);
    const events = await traceOf(failed.id);
    expect(events.at(-1)).toMatchObject({
      type: 'run.finished',
      outcome: 'failed',
      error: { code: 'internal' },
    });
  });

  it('cancel stops the loop while the model is thinking', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    llm.script(async () => {
      await held;
      return { toolCalls: [{ name: 'scrape', arguments: { url: site.url('/shop/') } }] };
    });
    const started = await tabhive.post('/v2/agent', { prompt: 'Slow work' });
    const id = started.json.id as string;
    await waitUntil(() => llm.requests.length === 1, 10_000, 'the first model call');
    const cancel = await fetch(`${tabhive.url}/v2/agent/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tabhive.apiKey}` },
    });
    expect(cancel.status).toBe(200);
    expect(await cancel.json()).toEqual({ success: true, status: 'cancelled' });
    await waitUntil(
      async () => (await traceOf(id)).some((event) => event.type === 'run.finished'),
      10_000,
      'the run to finish',
    );
    release();
    const status = (await tabhive.get(`/v2/agent/${id}`)).json;
    expect(status).toMatchObject({
      status: 'failed',
      stopReason: 'cancelled',
      error: 'The agent run was cancelled.',
    });
    expect(status.creditsUsed).toBe(1);
    const events = await traceOf(id);
    expect(events.map((event) => event.type)).toContain('run.cancel_requested');
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'cancelled' });
    // The held answer went nowhere: the loop made no further call.
    expect(llm.requests).toHaveLength(1);
    expect(
      (
        await fetch(`${tabhive.url}/v2/agent/${id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${tabhive.apiKey}` },
        })
      ).status,
    ).toBe(409);
  });

  it('lists the runs newest first, and reads a run as a one-turn thread', async () => {
    llm.script({ content: '{"a": 1}' });
    const { id } = await runAgent({ prompt: 'List me', urls: [site.url('/shop/')], effort: 'low' });
    const list = await tabhive.get('/v2/agent');
    expect(list.status).toBe(200);
    expect(list.json.agents[0]).toMatchObject({
      id,
      targetHint: new URL(site.url('/')).host,
      origin: 'api',
      settings: { hidden: false, starred: false },
      status: 'completed',
      options: { prompt: 'List me', urls: [site.url('/shop/')], effort: 'low' },
    });
    const created = list.json.agents.map((agent: Body) => Date.parse(agent.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const older = await tabhive.get(`/v2/agent?before=${Date.parse(list.json.agents[0].createdAt)}`);
    expect(older.json.agents.map((agent: Body) => agent.id)).not.toContain(id);
    const thread = await tabhive.get(`/v2/agent/threads/${id}?includeData=true`);
    expect(thread.json.thread).toMatchObject({
      id,
      status: 'idle',
      runs: [{ id, turn: 1, status: 'succeeded', data: { a: 1 } }],
    });
  });
});

describe('deep research (v1)', () => {
  it('searches, reads and writes a final analysis with activities, sources and JSON', async () => {
    const widget = site.url('/shop/widget.html');
    llm.script(
      { toolCalls: [{ name: 'search', arguments: { query: 'honey widget' } }] },
      { toolCalls: [{ name: 'scrape', arguments: { url: widget } }] },
      { content: 'I have enough.' },
      { content: '# Honey Widget\n\nIt costs $12.50 (source: the shop).' },
      { content: '{"price": 12.5}' },
    );
    const started = await tabhive.post('/v1/deep-research', {
      query: 'How much is the Honey Widget?',
      maxDepth: 3,
      timeLimit: 60,
      maxUrls: 5,
      formats: ['markdown', 'json'],
      jsonOptions: {
        schema: { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] },
      },
      origin: 'test',
    });
    expect(started.status).toBe(200);
    const id = started.json.id as string;
    let status: Body;
    await waitUntil(
      async () => {
        status = (await tabhive.get(`/v1/deep-research/${id}`)).json;
        return status.status !== 'processing';
      },
      50_000,
      'the research',
    );
    expect(status).toMatchObject({
      success: true,
      status: 'completed',
      currentDepth: 3,
      maxDepth: 3,
      summaries: [],
      data: { finalAnalysis: '# Honey Widget\n\nIt costs $12.50 (source: the shop).', json: { price: 12.5 } },
    });
    expect(status.sources).toEqual([
      { url: widget, title: 'Honey Widget', description: 'A widget that stirs honey' },
    ]);
    expect(status.data.sources).toEqual(status.sources);
    const kinds = status.activities.map((activity: Body) => `${activity.type}:${activity.status}`);
    expect(kinds).toEqual(
      expect.arrayContaining(['search:complete', 'extract:complete', 'synthesis:complete']),
    );
    expect(status.activities.find((activity: Body) => activity.type === 'extract').depth).toBe(2);
    expect(typeof status.expiresAt).toBe('string');
    // The research's system prompt, and no interact tool.
    expect(llm.requests[0]!.messages[0]!.content).toContain('deep research agent');
    expect(llm.requests[0]!.tools!.map((tool) => tool.function.name)).toEqual(['search', 'map', 'scrape']);
  });
});
