import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgress } from '../../../server/platform/egress/create-egress';

let port = 0;
let connections = 0;
const hosts: string[] = [];
const server = createServer((request, response) => {
  hosts.push(request.headers.host ?? '');
  if (request.url === '/hop') {
    response.writeHead(302, { location: `http://127.0.0.1:${port}/secret` });
    response.end();
    return;
  }
  response.end('SECRET');
});
server.on('connection', () => {
  connections += 1;
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('guarded egress', () => {
  it('refuses loopback in every spelling, names that resolve to it, and metadata, without connecting', async () => {
    const egress = createEgress({
      allowPrivateNetworks: false,
      lookup: async (name) => (name === 'rebind.test' ? ['93.184.216.34', '127.0.0.1'] : ['127.0.0.1']),
    });
    const before = connections;
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://0x7f.1:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::1]:${port}/`,
      `http://localhost:${port}/`,
      `http://a.localhost:${port}/`,
      `http://rebind.test:${port}/`,
      `http://169.254.169.254/latest/meta-data/`,
      `file:///etc/passwd`,
    ]) {
      await expect(egress.get(url, { timeoutMs: 2_000, maxBytes: 100 }), url).rejects.toThrow();
    }
    await expect(
      egress.post(`http://127.0.0.1:${port}/hook`, { body: '{}', headers: {}, timeoutMs: 2_000 }),
    ).rejects.toThrow();
    expect(connections).toBe(before);
    await egress.close();
  });

  it('with private networks allowed, reaches them and follows redirects, but never metadata', async () => {
    const egress = createEgress({ allowPrivateNetworks: true });
    const response = await egress.get(`http://site.localhost:${port}/hop`, { timeoutMs: 2_000, maxBytes: 3 });
    expect(response).toMatchObject({ status: 200, body: 'SEC', url: `http://127.0.0.1:${port}/secret` });
    await expect(egress.get('http://169.254.169.254/', { timeoutMs: 2_000, maxBytes: 100 })).rejects.toThrow(
      /not allowed/,
    );
    await egress.close();
  });

  it('with an allow list, reaches only what it lists, and connects to the address it checked', async () => {
    const asked: string[] = [];
    const egress = createEgress({
      allowPrivateNetworks: false,
      allowedPrivateHosts: ['svc.corp', '127.0.0.1/32'],
      lookup: async (name) => {
        asked.push(name);
        return name === 'svc.corp' || name === 'other.corp' ? ['127.0.0.1'] : ['::1'];
      },
    });
    const named = await egress.get(`http://svc.corp:${port}/x`, { timeoutMs: 2_000, maxBytes: 100 });
    expect(named).toMatchObject({ status: 200, body: 'SECRET' });
    // One lookup, and the request went to the address it returned, under the name.
    expect(asked).toEqual(['svc.corp']);
    expect(hosts.at(-1)).toBe(`svc.corp:${port}`);
    const literal = await egress.get(`http://127.0.0.1:${port}/hop`, { timeoutMs: 2_000, maxBytes: 100 });
    expect(literal.status).toBe(200);
    const before = connections;
    for (const url of [`http://[::1]:${port}/`, `http://v6.corp:${port}/`, `http://127.0.0.2:${port}/`]) {
      await expect(egress.get(url, { timeoutMs: 2_000, maxBytes: 100 }), url).rejects.toThrow(/not allowed/);
    }
    await expect(egress.get('http://169.254.169.254/', { timeoutMs: 2_000, maxBytes: 100 })).rejects.toThrow(
      /metadata/,
    );
    expect(connections).toBe(before);
    await egress.close();
  });
});
