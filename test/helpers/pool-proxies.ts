import { lookup as dnsLookup } from 'node:dns';
import { type AddressInfo, connect, createServer as createNetServer, type Socket } from 'node:net';
import { Server } from 'proxy-chain';

/** The page a proxy in `blocking` mode answers with: a site refusing that proxy's address. */
const BLOCK_PAGE =
  '<!doctype html><html><head><title>Access denied</title></head><body><h1>Access denied</h1>' +
  '<p>You do not have permission to access this page.</p></body></html>';

/**
 * Names under `.localhost` resolve to loopback, as they do in Chromium and in Tabhive's egress
 * (RFC 6761), so that tests can give each site a name of its own on one fixture server.
 */
const localhostLookup = ((hostname: string, options: unknown, callback: unknown) => {
  const done = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
  if (!hostname.endsWith('.localhost')) {
    (dnsLookup as (...args: unknown[]) => void)(hostname, typeof options === 'function' ? {} : options, done);
    return;
  }
  if (typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true) {
    done(null, [{ address: '127.0.0.1', family: 4 }]);
  } else done(null, '127.0.0.1', 4);
}) as typeof dnsLookup;

export interface PoolProxy {
  /** `http://[user:password@]127.0.0.1:port`, as PROXY_POOL takes it. */
  readonly url: string;
  /** `127.0.0.1:port`: the id the pool gives it. */
  readonly id: string;
  /** Every URL it forwarded (plain http) or tunnelled to (`host:port`), in order. */
  readonly seen: string[];
  /** Answer every plain-http request with a 403 "Access denied" page instead of forwarding it. */
  blocking: boolean;
  /** Answer a plain-http request with that page when this says so (a site that blocks some proxies). */
  blocks: ((url: string) => boolean) | undefined;
  /** Stops listening: connections to it are refused from now on. */
  close(): Promise<void>;
}

/**
 * A loopback upstream proxy for proxy-pool tests (proxy-chain's Server): it records what went
 * through it, asks for Basic credentials when given some, and can be told to answer as a site
 * that blocks it. SOCKS5: startSocks5Proxy below.
 */
export async function startPoolProxy({
  username,
  password,
}: { username?: string; password?: string } = {}): Promise<PoolProxy> {
  const seen: string[] = [];
  const state: { blocking: boolean; blocks: ((url: string) => boolean) | undefined } = {
    blocking: false,
    blocks: undefined,
  };
  const server = new Server({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ request, username: user, password: pass, hostname, port, isHttp }) => {
      const authenticated = username === undefined || (user === username && pass === password);
      if (authenticated) seen.push(isHttp ? (request.url ?? '') : `${hostname}:${port}`);
      const blocked =
        isHttp && authenticated && (state.blocking || state.blocks?.(request.url ?? '') === true);
      return {
        requestAuthentication: !authenticated,
        dnsLookup: localhostLookup,
        ...(blocked
          ? {
              customResponseFunction: () => ({
                statusCode: 403,
                headers: { 'content-type': 'text/html; charset=utf-8' },
                body: BLOCK_PAGE,
              }),
            }
          : {}),
      };
    },
  });
  await server.listen();
  const credentials =
    username === undefined ? '' : `${encodeURIComponent(username)}:${encodeURIComponent(password ?? '')}@`;
  let closed = false;
  return {
    url: `http://${credentials}127.0.0.1:${server.port}`,
    id: `127.0.0.1:${server.port}`,
    seen,
    get blocking() {
      return state.blocking;
    },
    set blocking(value: boolean) {
      state.blocking = value;
    },
    get blocks() {
      return state.blocks;
    },
    set blocks(value: ((url: string) => boolean) | undefined) {
      state.blocks = value;
    },
    async close() {
      if (closed) return;
      closed = true;
      await server.close(true);
    },
  };
}

/** Reads a socket's bytes in the sizes asked for, while a SOCKS handshake goes on. */
function byteReader(socket: Socket) {
  let buffered = Buffer.alloc(0);
  let wake: (() => void) | undefined;
  let ended = false;
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake?.();
  };
  const onEnd = () => {
    ended = true;
    wake?.();
  };
  socket.on('data', onData);
  socket.on('close', onEnd);
  return {
    async read(size: number): Promise<Buffer> {
      while (buffered.length < size) {
        if (ended) throw new Error('the client left during the handshake');
        await new Promise<void>((resolve) => (wake = resolve));
      }
      const bytes = buffered.subarray(0, size);
      buffered = buffered.subarray(size);
      return bytes;
    },
    /** Stops reading; what came after the handshake is returned, for the tunnel. */
    detach(): Buffer {
      socket.off('data', onData);
      socket.off('close', onEnd);
      return buffered;
    },
  };
}

/**
 * A SOCKS5 proxy on loopback (RFC 1928 CONNECT, with RFC 1929 username and password when given):
 * none of the installed packages has a SOCKS server, and the pool must be tested with one. It
 * records `host:port` of each tunnel and resolves `.localhost` names to loopback.
 */
export async function startSocks5Proxy({
  username,
  password,
}: { username?: string; password?: string } = {}): Promise<Omit<PoolProxy, 'blocking' | 'blocks'>> {
  const seen: string[] = [];
  const clients = new Set<Socket>();
  const handshake = async (client: Socket) => {
    const reader = byteReader(client);
    const [, methodCount = 0] = await reader.read(2);
    const methods = await reader.read(methodCount);
    const wanted = username === undefined ? 0 : 2;
    if (!methods.includes(wanted)) {
      client.end(Buffer.from([5, 0xff]));
      return;
    }
    client.write(Buffer.from([5, wanted]));
    if (wanted === 2) {
      const [, userLength = 0] = await reader.read(2);
      const user = (await reader.read(userLength)).toString();
      const [passLength = 0] = await reader.read(1);
      const pass = (await reader.read(passLength)).toString();
      const accepted = user === username && pass === password;
      client.write(Buffer.from([1, accepted ? 0 : 1]));
      if (!accepted) {
        client.end();
        return;
      }
    }
    const [, command, , addressType] = await reader.read(4);
    let host: string;
    if (addressType === 1) host = [...(await reader.read(4))].join('.');
    else if (addressType === 3) host = (await reader.read((await reader.read(1))[0] ?? 0)).toString();
    else throw new Error('IPv6 targets are not needed by the tests');
    const portBytes = await reader.read(2);
    const port = portBytes.readUInt16BE(0);
    if (command !== 1) {
      client.end(Buffer.from([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]));
      return;
    }
    seen.push(`${host}:${port}`);
    const target = connect({ host: host.endsWith('.localhost') ? '127.0.0.1' : host, port });
    target.once('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
    target.once('connect', () => {
      client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
      const early = reader.detach();
      if (early.length > 0) target.write(early);
      client.pipe(target).pipe(client);
      target.on('error', () => client.destroy());
      client.on('error', () => target.destroy());
    });
  };
  const server = createNetServer((client) => {
    clients.add(client);
    client.on('close', () => clients.delete(client));
    client.on('error', () => client.destroy());
    handshake(client).catch(() => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const credentials =
    username === undefined ? '' : `${encodeURIComponent(username)}:${encodeURIComponent(password ?? '')}@`;
  let closed = false;
  return {
    url: `socks5://${credentials}127.0.0.1:${port}`,
    id: `127.0.0.1:${port}`,
    seen,
    async close() {
      if (closed) return;
      closed = true;
      for (const client of clients) client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
