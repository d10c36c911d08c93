import { expect } from 'vitest';
import { WebSocket } from 'ws';

export interface RelayAnswer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/**
 * A raw CDP client of a session's cdpUrl, for what Playwright and Puppeteer would never send:
 * it attaches to the one page and sends commands to it, keeping every message it received.
 */
export async function openRelayClient(cdpUrl: string, apiKey: string) {
  const socket = new WebSocket(cdpUrl, { headers: { Authorization: `Bearer ${apiKey}` } });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const messages: Array<Record<string, unknown>> = [];
  const received: string[] = [];
  socket.on('message', (data) => {
    received.push(data.toString());
    messages.push(JSON.parse(data.toString()) as Record<string, unknown>);
  });
  const closed = new Promise<number>((resolve) => socket.once('close', resolve));
  let isClosed = false;
  void closed.then(() => (isClosed = true));
  let nextId = 1;
  let pageSession: string | undefined;

  const send = async (method: string, params: Record<string, unknown> = {}, sessionId = pageSession) => {
    const id = nextId++;
    if (isClosed) return { error: { code: -1, message: 'the relay closed' } } satisfies RelayAnswer;
    socket.send(JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) }));
    await expect
      .poll(() => isClosed || messages.some((message) => message['id'] === id), { timeout: 60_000 })
      .toBe(true);
    return (messages.find((message) => message['id'] === id) ?? {
      error: { code: -1, message: 'the relay closed' },
    }) as RelayAnswer;
  };

  return {
    messages,
    /** Everything the relay sent, as text: what a client could read in any frame. */
    everything: () => received.join('\n'),
    send,
    /** Attaches to the session's page; later commands go to it. */
    async attach(): Promise<string> {
      await send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
      const event = messages.find((message) => message['method'] === 'Target.attachedToTarget') as
        { params: { sessionId: string } } | undefined;
      if (event === undefined) throw new Error('the relay attached no page');
      pageSession = event.params.sessionId;
      return pageSession;
    },
    /** Events of a method received so far. */
    events: (method: string) =>
      messages
        .filter((message) => message['method'] === method)
        .map((message) => message['params'] as Record<string, unknown>),
    /** Waits until an event of `method` arrives after `count` of them were seen. */
    async nextEvent(method: string, count: number) {
      await expect
        .poll(() => messages.filter((message) => message['method'] === method).length, { timeout: 30_000 })
        .toBeGreaterThan(count);
    },
    closed,
    isClosed: () => isClosed,
    close: () => socket.close(),
  };
}
