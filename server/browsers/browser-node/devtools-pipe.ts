import type { Readable, Writable } from 'node:stream';

/** What a DevTools call answers: its result, or the error Chromium gave. */
interface Reply {
  id?: number;
  result?: unknown;
  error?: { message?: string };
}

export interface DevtoolsPipe {
  call<T = unknown>(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<T>;
  close(): void;
}

/**
 * The DevTools protocol over the pipe Chromium opens with `--remote-debugging-pipe`: JSON messages
 * ended by a NUL byte, ours on its file descriptor 3, its own on 4. Only the process that launched
 * the browser holds these pipes, so no other program on the machine can drive the browser.
 */
export function createDevtoolsPipe({ input, output }: { input: Writable; output: Readable }): DevtoolsPipe {
  let nextId = 1;
  let buffered = '';
  let closed = false;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  const failAll = (error: Error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };

  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    buffered += chunk;
    let end = buffered.indexOf('\0');
    while (end >= 0) {
      const frame = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      end = buffered.indexOf('\0');
      let reply: Reply;
      try {
        reply = JSON.parse(frame) as Reply;
      } catch {
        continue;
      }
      if (reply.id === undefined) continue;
      const waiter = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.error !== undefined) waiter?.reject(new Error(reply.error.message ?? 'DevTools error'));
      else waiter?.resolve(reply.result);
    }
  });
  output.on('close', () => {
    closed = true;
    failAll(new Error('the browser closed its DevTools pipe'));
  });
  input.on('error', (err: Error) => failAll(err));

  return {
    call<T>(method: string, params: Record<string, unknown> = {}, sessionId?: string) {
      if (closed) return Promise.reject(new Error('the browser closed its DevTools pipe'));
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        input.write(
          `${JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) })}\0`,
        );
      });
    },
    close() {
      closed = true;
      failAll(new Error('closed'));
    },
  };
}
