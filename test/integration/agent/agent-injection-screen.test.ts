import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPromptInjectionSite } from '../../helpers/prompt-injection-site';
import { startScriptedLlmServer, toolResults } from '../../helpers/scripted-llm-server';
import { startTestTabhive, waitUntil } from '../../helpers/start-test-tabhive';

/**
 * The agent with `checkPromptInjection`: every page it reads is screened first, and a flagged page
 * never reaches its model, not even as the error's quotation. No browser: the corpus pages take
 * the HTTP fast path. The scripted model plays the agent and gives the screen's second opinion.
 */
let site: Awaited<ReturnType<typeof startPromptInjectionSite>>;
let llm: Awaited<ReturnType<typeof startScriptedLlmServer>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startPromptInjectionSite();
  llm = await startScriptedLlmServer();
  tabhive = await startTestTabhive({
    browsers: 0,
    env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'scripted-model' },
  });
}, 60_000);
afterAll(async () => {
  await tabhive?.stop();
  await llm?.close();
  await site?.close();
});

describe('the agent with checkPromptInjection', () => {
  it('withholds a flagged page from its model and reads a clean one after the screen passed it', async () => {
    const flagged = site.url('/injection/html-comment.html');
    const clean = site.url('/clean/game-rules.html');
    llm.script(
      { toolCalls: [{ name: 'scrape', arguments: { url: flagged } }] },
      { toolCalls: [{ name: 'scrape', arguments: { url: clean } }] },
      // The screen's second opinion on the clean page (the rules found nothing certain there).
      { content: '{"injection": false}' },
      { content: '{"rule": "Players take turns."}' },
    );
    const started = await tabhive.post('/v2/agent', {
      prompt: 'What are the rules?',
      urls: [flagged, clean],
      checkPromptInjection: true,
    });
    expect(started.status, JSON.stringify(started.json)).toBe(200);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the status body as the API sent it
    let status: any;
    await waitUntil(
      async () => {
        status = (await tabhive.get(`/v2/agent/${started.json.id as string}`)).json;
        return status.status !== 'processing';
      },
      30_000,
      'the agent run to end',
    );
    expect(status).toMatchObject({ status: 'completed', data: { rule: 'Players take turns.' } });
    const [withheld] = toolResults(llm.requests[1]!);
    expect(withheld).toMatch(/withheld: the prompt-injection screen flagged it/);
    expect(withheld).not.toMatch(/API keys|collect\.example/);
    expect(llm.requests[2]!.messages[0]!.content).toContain('security filter');
    expect(toolResults(llm.requests[3]!)[1]).toContain('Players take turns');
    // No request to the model carries the flagged page's text.
    expect(JSON.stringify(llm.requests)).not.toContain('collect.example.net');
  });
});
