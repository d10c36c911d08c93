import net from 'node:net';
import tls from 'node:tls';
import type { ProxyEntry } from './parse-proxy-pool';

/** `host:port` a health check asks the proxy to reach (PROXY_POOL_CHECK_TARGET). */
export interface CheckTarget {
  host: string;
  port: number;
}

const portOf = (url: URL) =>
  Number(
    url.port === '' ? (url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : 1080) : url.port,
  );

/** Connects to the proxy itself (TLS for an https:// proxy). */
function openSocket(url: URL, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const options = { host: url.hostname.replace(/^\[|\]$/g, ''), port: portOf(url), timeout: timeoutMs };
    const socket =
      url.protocol === 'https:'
        ? tls.connect({ ...options, servername: net.isIP(options.host) === 0 ? options.host : undefined })
        : net.connect(options);
    const ready = url.protocol === 'https:' ? 'secureConnect' : 'connect';
    socket.once(ready, () => {
      socket.setTimeout(0);
      resolve(socket);
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error('timed out connecting to the proxy'));
    });
    socket.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(`cannot connect to the proxy (${err.code ?? 'error'})`)),
    );
  });
}

/** An HTTP(S) proxy's answer to CONNECT target: its status line's code. */
function connectThrough(socket: net.Socket, url: URL, target: CheckTarget, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const authority = `${target.host}:${target.port}`;
    const credentials =
      url.username === ''
        ? ''
        : `Proxy-Authorization: Basic ${Buffer.from(
            `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`,
          ).toString('base64')}\r\n`;
    let head = '';
    const timer = setTimeout(() => reject(new Error('timed out waiting for CONNECT')), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n');
      if (end === -1) return;
      clearTimeout(timer);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.slice(0, end))?.[1];
      if (status === '200') resolve();
      else reject(new Error(`CONNECT answered ${status ?? 'something else than HTTP'}`));
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new Error(`the proxy closed the connection (${err.code ?? 'error'})`));
    });
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${credentials}\r\n`);
  });
}

/** Reads exactly `size` bytes, or rejects when the socket ends or the time is up. */
function readBytes(socket: net.Socket, size: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const done = (err: Error | undefined, bytes?: Buffer) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      if (err !== undefined) reject(err);
      else {
        if (buffered.length > size) socket.unshift(buffered.subarray(size));
        resolve(bytes!);
      }
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length >= size) done(undefined, buffered.subarray(0, size));
    };
    const onClose = () => done(new Error('the proxy closed the connection'));
    const timer = setTimeout(() => done(new Error('timed out waiting for the proxy')), timeoutMs);
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}

/** A SOCKS5 CONNECT (RFC 1928), with username and password (RFC 1929) when the URL has them. */
async function socks5Connect(socket: net.Socket, url: URL, target: CheckTarget, timeoutMs: number) {
  const withPassword = url.username !== '';
  socket.write(Buffer.from([5, 1, withPassword ? 2 : 0]));
  const [, method] = await readBytes(socket, 2, timeoutMs);
  if (method !== (withPassword ? 2 : 0)) throw new Error('the SOCKS proxy refused the authentication method');
  if (withPassword) {
    const user = Buffer.from(decodeURIComponent(url.username));
    const password = Buffer.from(decodeURIComponent(url.password));
    socket.write(
      Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([password.length]), password]),
    );
    const [, status] = await readBytes(socket, 2, timeoutMs);
    if (status !== 0) throw new Error('the SOCKS proxy refused the credentials');
  }
  const host = Buffer.from(target.host);
  const port = Buffer.from([target.port >> 8, target.port & 0xff]);
  socket.write(Buffer.concat([Buffer.from([5, 1, 0, 3, host.length]), host, port]));
  const [, reply] = await readBytes(socket, 2, timeoutMs);
  if (reply !== 0) throw new Error(`the SOCKS proxy could not connect (reply ${reply ?? '?'})`);
}

/**
 * Whether a proxy answers: a TCP (or TLS) connection to it, or with `target`, a tunnel through it
 * to that address (CONNECT for HTTP(S) proxies, a SOCKS connect otherwise), which also proves the
 * credentials. Rejects with a reason that never contains the proxy's URL.
 */
export async function checkProxy(entry: ProxyEntry, target: CheckTarget | undefined, timeoutMs: number) {
  const url = new URL(entry.url);
  const socket = await openSocket(url, timeoutMs);
  try {
    if (target === undefined) return;
    if (entry.protocol === 'socks5') await socks5Connect(socket, url, target, timeoutMs);
    else await connectThrough(socket, url, target, timeoutMs);
  } finally {
    socket.destroy();
  }
}
