import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedChat {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    response_format?: { type: string };
    [key: string]: unknown;
  };
}

/** The tokens every text answer says it cost (`usage.total_tokens`), for token accounting tests. */
export const FAKE_TOKENS_PER_ANSWER = 100;

/** What the fake answers: the assistant's text, or a whole HTTP reply (status and body). */
export type FakeAnswer = string | { status: number; body: string };

/**
 * A small OpenAI-compatible chat completions endpoint on loopback for tests of the LLM path:
 * it answers from a queue of canned answers (then with `fallback`), and records every request.
 * Its base URL ends in `/v1`, as LLM_BASE_URL usually does.
 */
export async function startFakeLlmServer({ fallback = '{}' }: { fallback?: FakeAnswer } = {}) {
  const requests: RecordedChat[] = [];
  const queue: FakeAnswer[] = [];

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      // Anything but a chat completion (a stray connection, an aborted body) is a 404, never a throw.
      let body: RecordedChat['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedChat['body'];
      } catch {
        response.writeHead(404).end();
        return;
      }
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        response.writeHead(404).end();
        return;
      }
      requests.push({ path: request.url, authorization: request.headers.authorization, body });
      const answer = queue.shift() ?? fallback;
      if (typeof answer !== 'string') {
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          model: 'fake',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer } }],
          usage: { prompt_tokens: 90, completion_tokens: 10, total_tokens: FAKE_TOKENS_PER_ANSWER },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    /** Queues answers for the next requests, in order. */
    answer(...answers: FakeAnswer[]) {
      queue.push(...answers);
    },
    reset() {
      requests.length = 0;
      queue.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
