import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { holdEarlyTraffic } from '../../../server/start-tabhive';

let server: Server;
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function listening() {
  server = createServer();
  const early = holdEarlyTraffic(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { early, port: (server.address() as AddressInfo).port };
}

const settled = <T>(promise: Promise<T>) => {
  let state: 'pending' | 'done' = 'pending';
  void promise.then(
    () => (state = 'done'),
    () => (state = 'done'),
  );
  return () => state;
};

describe('traffic that reaches the server before the API is composed', () => {
  it('waits for the handlers, then goes to them', async () => {
    const { early, port } = await listening();
    const seen: string[] = [];
    const answer = fetch(`http://127.0.0.1:${port}/health`).then((response) => response.text());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const socket = new WebSocket(`ws://127.0.0.1:${port}/browser-hub`);
    const welcomed = new Promise<string>((resolve, reject) => {
      socket.once('message', (data) => resolve(String(data)));
      socket.once('error', reject);
    });
    const answerState = settled(answer);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answerState()).toBe('pending');

    const wss = new WebSocketServer({ noServer: true });
    early.release(
      (request, response) => {
        seen.push(`request ${request.url}`);
        response.end('ok');
      },
      (request, upgradeSocket, head) => {
        seen.push(`upgrade ${request.url}`);
        wss.handleUpgrade(request, upgradeSocket, head, (ws) => ws.send('welcome'));
      },
    );
    expect(await answer).toBe('ok');
    expect(await welcomed).toBe('welcome');
    expect(seen).toEqual(['request /health', 'upgrade /browser-hub']);

    // Later traffic goes straight to the handlers.
    expect(await (await fetch(`http://127.0.0.1:${port}/later`)).text()).toBe('ok');
    expect(seen.at(-1)).toBe('request /later');
    socket.close();
    wss.close();
  });

  it('is closed when the start fails', async () => {
    const { early, port } = await listening();
    const answer = fetch(`http://127.0.0.1:${port}/health`);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/browser-hub`);
    const failed = new Promise<string>((resolve) => {
      socket.once('error', () => resolve('error'));
      socket.once('close', () => resolve('closed'));
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    early.drop();
    await expect(answer).rejects.toThrow();
    expect(['error', 'closed']).toContain(await failed);
  });
});
