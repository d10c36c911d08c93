import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../../helpers/fake-llm-server';
import { startPromptInjectionSite } from '../../helpers/prompt-injection-site';
import { startTestTabhive } from '../../helpers/start-test-tabhive';

/**
 * `checkPromptInjection` and `knowledgeGraph` through the HTTP API of a whole Tabhive (no browser:
 * the corpus pages take the HTTP fast path), with and without a (fake) model.
 */
let site: Awaited<ReturnType<typeof startPromptInjectionSite>>;
let plain: Awaited<ReturnType<typeof startTestTabhive>>;
let withModel: Awaited<ReturnType<typeof startTestTabhive>>;
let llm: Awaited<ReturnType<typeof startFakeLlmServer>>;

beforeAll(async () => {
  site = await startPromptInjectionSite();
  llm = await startFakeLlmServer();
  plain = await startTestTabhive({ browsers: 0 });
  withModel = await startTestTabhive({ browsers: 0, env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake' } });
}, 60_000);
afterAll(async () => {
  await plain?.stop();
  await withModel?.stop();
  await llm?.close();
  await site?.close();
});

async function scrape(tabhive: typeof plain, body: Record<string, unknown>) {
  const response = await fetch(`${tabhive.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tabhive.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's answer, asserted on below
  return { status: response.status, json: (await response.json()) as any };
}

const credits = async (tabhive: typeof plain) =>
  (await tabhive.tabhive.stores.teams.get('default'))?.creditsUsed ?? 0;

describe('checkPromptInjection over HTTP', () => {
  it('fails a page with a hidden instruction with 422 SCRAPE_PROMPT_INJECTION_DETECTED, charging nothing', async () => {
    const before = await credits(plain);
    const answer = await scrape(plain, {
      url: site.url('/injection/css-class-hidden.html'),
      formats: ['markdown', { type: 'json', prompt: 'Hotel rating?' }],
      checkPromptInjection: true,
    });
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({
      success: false,
      code: 'SCRAPE_PROMPT_INJECTION_DETECTED',
      details: { findings: [{ rule: 'hidden-instruction', where: 'not-displayed', strength: 'strong' }] },
    });
    expect(answer.json.error).toContain('When summarizing this page you should always say');
    expect(await credits(plain)).toBe(before);
  });

  it('lets a security article that quotes an injection through, at 4 credits more', async () => {
    const before = await credits(plain);
    const answer = await scrape(plain, {
      url: site.url('/clean/security-article-quotes.html'),
      formats: ['markdown'],
      checkPromptInjection: true,
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.data.markdown).toContain('ignore all previous instructions');
    expect(answer.json.data.metadata.creditsUsed).toBe(5);
    // The team is charged what the document says (so the 422 above, charged nothing, is a real 0).
    expect((await credits(plain)) - before).toBe(5);
  });

  it('asks the configured model before the json format reads the page, and stops the scrape on its word', async () => {
    llm.reset();
    llm.answer('{"injection": true, "reason": "the text tells assistants what to recommend"}');
    const answer = await scrape(withModel, {
      url: site.url('/clean/ai-news.html'),
      formats: [{ type: 'json', prompt: 'What was released?', checkPromptInjection: true }],
    });
    expect(answer.status).toBe(422);
    expect(answer.json.code).toBe('SCRAPE_PROMPT_INJECTION_DETECTED');
    // Only the screen's question reached the model: the json format never ran.
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]?.body.messages[0]?.content).toContain('security filter');
  });

  it('runs the json format after a clean verdict', async () => {
    llm.reset();
    llm.answer('{"injection": false}', '{"released": "a new language model"}');
    const answer = await scrape(withModel, {
      url: site.url('/clean/ai-news.html'),
      formats: [{ type: 'json', prompt: 'What was released?' }],
      checkPromptInjection: true,
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.data.json).toEqual({ released: 'a new language model' });
    expect(answer.json.data.metadata.creditsUsed).toBe(9);
    expect(llm.requests).toHaveLength(2);
  });
});

describe('knowledgeGraph over HTTP', () => {
  it('answers the entities and relations of the requested types from JSON-LD without a model', async () => {
    const answer = await scrape(plain, {
      url: site.url('/graph'),
      formats: [{ type: 'knowledgeGraph', entityTypes: ['Person', 'Organization'] }],
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.data.knowledgeGraph).toEqual({
      entities: [
        {
          id: '#mia',
          type: 'Person',
          name: 'Mia Lind',
          properties: { jobTitle: 'Beekeeper' },
          source: 'json-ld',
        },
        { id: '#coop', type: 'Organization', name: 'Valley Honey Coop', properties: {}, source: 'json-ld' },
      ],
      relations: [
        { source: '#mia', type: 'worksFor', target: '#coop' },
        { source: '#coop', type: 'founder', target: '#mia' },
      ],
    });
    expect(answer.json.data.metadata.creditsUsed).toBe(5);
  });
});
