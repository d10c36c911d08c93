import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat completions request as the scripted model received it. */
export interface ScriptedRequest {
  model: string;
  messages: Array<{
    role: string;
    content: string | null;
    tool_call_id?: string;
    tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  }>;
  tools?: Array<{ type: string; function: { name: string; parameters: unknown } }>;
  tool_choice?: string;
  response_format?: { type: string };
}

/** One answer: tool calls (arguments as a value, sent as JSON text), text, or a raw HTTP reply. */
export type ScriptedReply =
  | { toolCalls: Array<{ name: string; arguments: unknown; id?: string }>; content?: string }
  | { content: string }
  | { status: number; body: string };

/** A reply, or a function that makes one from the request (and may take its time: a held answer). */
export type ScriptStep =
  ScriptedReply | ((request: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>);

const CONTROL_STEP = (value: unknown): value is ScriptedReply =>
  value !== null &&
  typeof value === 'object' &&
  ('toolCalls' in value || 'content' in value || 'status' in value);

/**
 * An OpenAI-compatible chat completions endpoint on loopback that answers from a script, in order:
 * tool calls (`tool_calls` with JSON-text arguments, `finish_reason: "tool_calls"`), text, or an
 * HTTP error; then `fallback`. It records every request, so tests can read what the model was
 * shown (tool results, refusals). Its base URL ends in `/v1`, as LLM_BASE_URL usually does.
 *
 * Other processes (the Python compatibility suite) can script it over HTTP: `POST /script` with a
 * JSON array of replies queues them, `POST /reset` clears the queue and the record, and
 * `GET /requests` answers the recorded requests.
 */
export async function startScriptedLlmServer({
  fallback = { content: '{}' },
}: { fallback?: ScriptedReply } = {}) {
  const requests: ScriptedRequest[] = [];
  const queue: ScriptStep[] = [];
  let calls = 0;

  const reply = (response: ServerResponse, answer: ScriptedReply) => {
    if ('status' in answer) {
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      return;
    }
    calls += 1;
    const toolCalls =
      'toolCalls' in answer
        ? answer.toolCalls.map((call, index) => ({
            id: call.id ?? `call_${calls}_${index}`,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          }))
        : undefined;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: `chatcmpl-${calls}`,
        object: 'chat.completion',
        model: 'scripted',
        choices: [
          {
            index: 0,
            finish_reason: toolCalls === undefined ? 'stop' : 'tool_calls',
            message: {
              role: 'assistant',
              content: answer.content ?? null,
              ...(toolCalls === undefined ? {} : { tool_calls: toolCalls }),
            },
          },
        ],
        usage: { prompt_tokens: 90, completion_tokens: 10, total_tokens: 100 },
      }),
    );
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (request.method === 'GET' && request.url === '/requests') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(requests));
        return;
      }
      if (request.method === 'POST' && request.url === '/reset') {
        requests.length = 0;
        queue.length = 0;
        response.writeHead(204).end();
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        response.writeHead(400).end();
        return;
      }
      if (request.method === 'POST' && request.url === '/script') {
        const steps = Array.isArray(body) ? body.filter(CONTROL_STEP) : [];
        queue.push(...steps);
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ queued: steps.length }));
        return;
      }
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        response.writeHead(404).end();
        return;
      }
      const chat = body as ScriptedRequest;
      requests.push(chat);
      const step = queue.shift() ?? fallback;
      void Promise.resolve(typeof step === 'function' ? step(chat) : step)
        .then((answer) => {
          if (!response.destroyed) reply(response, answer);
        })
        .catch(() => response.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    /** Where other processes script it (`/script`, `/reset`, `/requests`). */
    controlUrl: `http://127.0.0.1:${port}`,
    requests,
    /** Queues steps for the next requests, in order. */
    script(...steps: ScriptStep[]) {
      queue.push(...steps);
    },
    /** Steps not yet used. */
    pending: () => queue.length,
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

/** The tool results the model was shown in a request, in order (`role: "tool"` messages). */
export function toolResults(request: ScriptedRequest): string[] {
  return request.messages
    .filter((message) => message.role === 'tool')
    .map((message) => message.content ?? '');
}
