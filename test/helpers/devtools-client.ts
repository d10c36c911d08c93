import { WebSocket } from 'ws';

interface TargetInfo {
  id: string;
  type: string;
  url: string;
  webSocketDebuggerUrl: string;
}

/**
 * A minimal DevTools client for a browser a test launched with --remote-debugging-port: lists
 * targets and sends browser-level commands. Tests only; the product never opens that port.
 */
export async function connectDevtools(port: number) {
  const base = `http://127.0.0.1:${port}`;
  const { webSocketDebuggerUrl } = (await (await fetch(`${base}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
    };
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (waiter === undefined) return;
    pending.delete(message.id as number);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  });
  return {
    async targets(): Promise<TargetInfo[]> {
      return (await (await fetch(`${base}/json/list`)).json()) as TargetInfo[];
    },
    send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((resolve, reject) =>
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject }),
      );
    },
    close() {
      socket.close();
    },
  };
}
