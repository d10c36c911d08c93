import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { raiseFrameLimit } from '../../../server/browsers/hub/frame-limit';

/**
 * raiseFrameLimit reaches into ws's receiver (there is no documented per-socket limit). These
 * tests drive real ws sockets, so that a ws upgrade that moves the limit fails here first.
 */
const SMALL = 1024;
let server: WebSocketServer | undefined;

afterEach(async () => {
  for (const client of server?.clients ?? []) client.terminate();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A ws server with a small maxPayload that raises it to `raiseTo` for each socket when asked. */
async function serverWithSmallFrames(raiseTo?: number) {
  const received: number[] = [];
  const raised: boolean[] = [];
  server = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: SMALL });
  server.on('connection', (socket) => {
    socket.on('error', () => undefined);
    socket.on('message', (data: Buffer) => {
      received.push(data.length);
      if (raiseTo !== undefined) raised.push(raiseFrameLimit(socket, raiseTo));
      socket.send('ready');
    });
  });
  await new Promise<void>((resolve) => server!.once('listening', () => resolve()));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, raised };
}

/** Sends a small frame, waits for the server's answer, then a frame of `size` bytes. */
async function sendAfterGreeting(url: string, size: number) {
  const client = new WebSocket(url);
  client.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => client.on('close', (code) => resolve(code)));
  const answers: string[] = [];
  client.on('message', (data: Buffer) => answers.push(data.toString()));
  await new Promise<void>((resolve) => client.once('open', () => resolve()));
  client.send('hello');
  while (answers.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  client.send(Buffer.alloc(size, 1));
  return { client, closed, answers };
}

describe('raiseFrameLimit', () => {
  it('leaves the server’s small limit in force until it is called', async () => {
    const { url, received } = await serverWithSmallFrames();
    const { closed } = await sendAfterGreeting(url, SMALL * 4);
    expect(await closed).toBe(1009);
    expect(received).toEqual([5]);
  });

  it('lets one socket send larger frames once raised, and no other socket', async () => {
    const { url, received, raised } = await serverWithSmallFrames(SMALL * 1024);
    const { client, answers } = await sendAfterGreeting(url, SMALL * 512);
    while (answers.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(received).toEqual([5, SMALL * 512]);
    expect(raised).toEqual([true, true]);
    client.close();

    // A fresh socket starts small again.
    const other = new WebSocket(url);
    other.on('error', () => undefined);
    const otherClosed = new Promise<number>((resolve) => other.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve) => other.once('open', () => resolve()));
    other.send(Buffer.alloc(SMALL * 4, 1));
    expect(await otherClosed).toBe(1009);
  });

  it('reports a socket without a receiver it knows instead of pretending', () => {
    expect(raiseFrameLimit({} as WebSocket, SMALL)).toBe(false);
  });
});
