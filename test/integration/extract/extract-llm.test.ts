import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestTabhive, waitUntil } from '../../helpers/start-test-tabhive';
import { startExtractSite } from './extract-site';
import { type ChatRequest, startScriptedLlm } from './scripted-llm';

/**
 * Extract with an LLM provider (a scripted OpenAI-compatible endpoint on loopback): one model call
 * per page into the schema, then one merge call, whose answer is checked against what the pages
 * stated.
 */

let site: Awaited<ReturnType<typeof startExtractSite>>;
let llm: Awaited<ReturnType<typeof startScriptedLlm>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
/** How the scripted model answers merge requests in the current test. */
let mergeAnswer: string;
/** Pages (by their heading) whose extraction the model botches. */
let botched: string[];

const isMerge = (request: ChatRequest) => request.messages[0]?.content.startsWith('You merge data') === true;
const userText = (request: ChatRequest) =>
  request.messages
    .filter((message) => message.role === 'user')
    .map((message) => message.content)
    .join('\n');

function answer(request: ChatRequest): string {
  if (isMerge(request)) return mergeAnswer;
  const text = userText(request);
  if (text.includes('Desk Lamp')) {
    return botched.includes('Desk Lamp')
      ? 'no JSON here'
      : JSON.stringify({ brand: 'Lumen', products: [{ name: 'Desk Lamp', price: 39.9 }] });
  }
  if (text.includes('Office Chair')) {
    return botched.includes('Office Chair')
      ? 'no JSON here'
      : JSON.stringify({ brand: 'Sitwell', products: [{ name: 'Office Chair', price: 129 }] });
  }
  return '{}';
}

beforeAll(async () => {
  site = await startExtractSite();
  llm = await startScriptedLlm(answer);
  tabhive = await startTestTabhive({
    browsers: 0,
    env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'scripted' },
  });
});
afterAll(async () => {
  await tabhive?.stop();
  await llm?.close();
  await site?.close();
});
beforeEach(() => {
  llm.requests.length = 0;
  botched = [];
  mergeAnswer = JSON.stringify({
    brand: 'Lumen',
    warranty: '5 years',
    products: [
      { name: 'Desk Lamp', price: 39.9 },
      { name: 'Office Chair', price: 129 },
    ],
  });
});

const schema = {
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
async function extract(request: Record<string, unknown>): Promise<any> {
  const started = await tabhive.post('/v2/extract', request);
  expect(started.status, JSON.stringify(started.json)).toBe(200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see the signature
  let body: any;
  await waitUntil(
    async () => {
      body = (await tabhive.get(`/v2/extract/${started.json.id}`)).json;
      return body.status !== 'processing';
    },
    30_000,
    'the extract to end',
  );
  return body;
}

describe('extract with an LLM', () => {
  const lamp = () => site.url('/products/lamp.html');
  const chair = () => site.url('/products/chair.html');

  it('asks the model per page and once to merge, and keeps only what the pages stated', async () => {
    const result = await extract({
      urls: [lamp(), chair()],
      schema,
      prompt: 'The brand and the products with their prices',
      systemPrompt: 'Prices are in euros.',
      showSources: true,
    });
    expect(result.status).toBe('completed');
    expect(result.data).toEqual({
      brand: 'Lumen',
      products: [
        { name: 'Desk Lamp', price: 39.9 },
        { name: 'Office Chair', price: 129 },
      ],
    });
    expect(result.sources).toEqual({
      brand: [lamp()],
      'products[0].name': [lamp()],
      'products[0].price': [lamp()],
      'products[1].name': [chair()],
      'products[1].price': [chair()],
    });
    expect(result.warning).toContain(
      'The merge answered values no page stated; they were left out: warranty.',
    );
    expect(result.warning).toContain(
      'These required fields were not found on any page and are left empty: warranty, products[].sku.',
    );
    expect(result.creditsUsed).toBe(10);

    const pageCalls = llm.requests.filter((request) => !isMerge(request));
    const mergeCalls = llm.requests.filter(isMerge);
    expect(pageCalls).toHaveLength(2);
    expect(mergeCalls).toHaveLength(1);
    for (const call of pageCalls) {
      expect(userText(call)).toContain('Prices are in euros.');
      expect(userText(call)).toContain('What to extract: The brand and the products with their prices');
      // One page is asked for what it states; completeness is judged after the merge.
      expect(userText(call)).not.toContain('"required"');
    }
    const merge = mergeCalls[0] as ChatRequest;
    expect(merge.messages[0]?.content).toContain("The caller's instructions: Prices are in euros.");
    expect(userText(merge)).toContain(
      JSON.stringify({
        url: lamp(),
        data: { brand: 'Lumen', products: [{ name: 'Desk Lamp', price: 39.9 }] },
      }),
    );
    expect(userText(merge)).not.toContain('"required"');
  });

  it('falls back to the built-in merge when the model cannot merge', async () => {
    mergeAnswer = 'this is not JSON';
    const result = await extract({ urls: [lamp(), chair()], schema });
    expect(result.status).toBe('completed');
    expect(result.data).toEqual({
      brand: 'Lumen',
      products: [
        { name: 'Desk Lamp', price: 39.9 },
        { name: 'Office Chair', price: 129 },
      ],
    });
    expect(result.warning).toContain(
      "The LLM could not merge the pages' data (the answer was not valid JSON, also after a retry); the built-in merge did.",
    );
    expect(llm.requests.filter(isMerge)).toHaveLength(2);
  });

  it('makes no merge call for one page, and leaves out a page the model could not read', async () => {
    botched = ['Office Chair'];
    const result = await extract({ urls: [lamp(), chair()], schema });
    expect(result.status).toBe('completed');
    expect(result.data).toEqual({ brand: 'Lumen', products: [{ name: 'Desk Lamp', price: 39.9 }] });
    expect(result.warning).toMatch(
      /1 page\(s\) could not be read and were left out: .*chair\.html \(\(Internal server error\) - LLM extraction failed/,
    );
    expect(llm.requests.filter(isMerge)).toHaveLength(0);
    // The page that failed is not booked: only the lamp's 5 credits.
    expect(result.creditsUsed).toBe(5);
  });
});
