import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { askForJson } from '../../../server/platform/llm/ask-for-json';
import { LlmError, createLlmProvider } from '../../../server/platform/llm/llm-provider';
import { guardSchema } from '../../../server/platform/llm/schema-guard';
import { startFakeLlmServer } from '../../helpers/fake-llm-server';

let fake: Awaited<ReturnType<typeof startFakeLlmServer>>;
beforeAll(async () => {
  fake = await startFakeLlmServer();
});
afterAll(async () => fake?.close());
beforeEach(() => fake.reset());

const schema = guardSchema({
  type: 'object',
  properties: { price: { type: 'number' } },
  required: ['price'],
});

describe('the LLM provider', () => {
  it('is absent without LLM_BASE_URL', () => {
    expect(createLlmProvider({ baseUrl: undefined })).toBeUndefined();
  });

  it('posts an OpenAI chat completion with the key, the model and temperature 0', async () => {
    const llm = createLlmProvider({ baseUrl: fake.baseUrl, apiKey: 'sk-test', model: 'tiny' });
    fake.answer('hello');
    expect(await llm?.complete([{ role: 'user', content: 'hi' }])).toBe('hello');
    expect(fake.requests[0]).toMatchObject({
      path: '/v1/chat/completions',
      authorization: 'Bearer sk-test',
      body: { model: 'tiny', temperature: 0, messages: [{ role: 'user', content: 'hi' }] },
    });
  });

  it('turns HTTP errors, timeouts and unreachable endpoints into LlmErrors', async () => {
    const llm = createLlmProvider({ baseUrl: fake.baseUrl });
    fake.answer({ status: 401, body: '{"error":{"message":"bad key"}}' });
    await expect(llm?.complete([])).rejects.toThrow(/answered 401: .*bad key/);
    const unreachable = createLlmProvider({ baseUrl: 'http://127.0.0.1:1/v1' });
    await expect(unreachable?.complete([])).rejects.toThrow(LlmError);
    // A listener that takes the request and never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const slow = createLlmProvider({ baseUrl: `http://127.0.0.1:${port}/v1`, timeoutMs: 50 });
    await expect(slow?.complete([])).rejects.toThrow('the LLM endpoint did not answer within 50 ms');
    silent.closeAllConnections();
    silent.close();
  });
});

describe('askForJson', () => {
  it('asks for JSON with the schema and the page, and returns the validated answer', async () => {
    const llm = createLlmProvider({ baseUrl: fake.baseUrl });
    fake.answer('```json\n{"price": 39.9}\n```');
    const value = await askForJson(llm!, { content: '# Smoker\n\n39.90 EUR', schema, prompt: 'The price' });
    expect(value).toEqual({ price: 39.9 });
    const [request] = fake.requests;
    expect(request?.body.response_format).toEqual({ type: 'json_object' });
    expect(request?.body.messages[1]?.content).toContain('The price');
    expect(request?.body.messages[1]?.content).toContain('"required":["price"]');
    expect(request?.body.messages[1]?.content).toContain('39.90 EUR');
  });

  it('retries once with what was wrong, then gives up with a clear error', async () => {
    const llm = createLlmProvider({ baseUrl: fake.baseUrl });
    fake.answer('not json', '{"price": 5}');
    expect(await askForJson(llm!, { content: 'x', schema })).toEqual({ price: 5 });
    expect(fake.requests[1]?.body.messages.at(-1)?.content).toMatch(/not valid JSON/);

    fake.reset();
    fake.answer('{"price": "cheap"}', '{"cost": 1}');
    await expect(askForJson(llm!, { content: 'x', schema })).rejects.toThrow(
      /did not match the schema .*also after a retry/,
    );
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]?.body.messages.at(-1)?.content).toMatch(/must be number/);
  });
});
