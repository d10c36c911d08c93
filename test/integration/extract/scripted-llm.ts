import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  messages: Array<{ role: string; content: string }>;
}

/**
 * An OpenAI-compatible chat endpoint on loopback whose answers depend on what it is asked (an
 * extract asks about several pages at once, in no fixed order): `answer` gets each request and
 * returns the assistant's text. Every request is recorded.
 */
export async function startScriptedLlm(answer: (request: ChatRequest) => string) {
  const requests: ChatRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: ChatRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
      } catch {
        response.writeHead(400).end();
        return;
      }
      requests.push(body);
      const content = answer(body);
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          model: 'scripted',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
