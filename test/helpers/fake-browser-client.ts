import { WebSocket } from 'ws';
import {
  PROTOCOL_VERSION,
  decodeServerMessage,
  type BrowserMessage,
  type ServerMessage,
} from '../../shared/protocol/messages';

/**
 * A scripted peer that speaks the hub protocol the way the extension does, for testing the
 * server's side without a browser. Messages are queued so tests can await them in order.
 */
export async function connectFakeBrowser(url: string) {
  const socket = new WebSocket(url);
  const inbox: ServerMessage[] = [];
  const waiters: Array<() => void> = [];
  let closed: { code: number; reason: string } | undefined;
  const closedPromise = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      closed = { code, reason: reason.toString() };
      resolve(closed);
      for (const wake of waiters.splice(0)) wake();
    });
  });
  socket.on('message', (data) => {
    const decoded = decodeServerMessage(data.toString());
    if (!decoded.ok) throw new Error(decoded.error);
    inbox.push(decoded.message);
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });

  return {
    send(message: BrowserMessage | Record<string, unknown>) {
      socket.send(JSON.stringify(message));
    },
    sendRaw(text: string) {
      socket.send(text);
    },
    hello(token: string, overrides: Record<string, unknown> = {}) {
      this.send({
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        token,
        extensionVersion: 'test',
        userAgent: 'fake-browser',
        lostTaskIds: [],
        ...overrides,
      });
    },
    /** The next message of the given type (earlier ones of other types are dropped). */
    async next<T extends ServerMessage['type']>(
      type: T,
      timeoutMs = 5_000,
    ): Promise<Extract<ServerMessage, { type: T }>> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = inbox.findIndex((message) => message.type === type);
        if (index >= 0) return inbox.splice(index, 1)[0] as Extract<ServerMessage, { type: T }>;
        if (closed) throw new Error(`socket closed (${closed.code}) while waiting for ${type}`);
        if (Date.now() > deadline) throw new Error(`no ${type} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    closed: closedPromise,
    close() {
      socket.close();
    },
    terminate() {
      socket.terminate();
    },
  };
}
