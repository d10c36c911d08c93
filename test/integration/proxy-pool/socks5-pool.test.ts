import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserEgressProxy } from '../../../server/platform/browser-egress';
import { createEgress } from '../../../server/platform/egress';
import { silentLog } from '../../../server/platform/log/log';
import { createProxyPool, parseProxyPool } from '../../../server/platform/proxy-pool';
import { startFixtureSite } from '../../helpers/fixture-site';
import { startSocks5Proxy } from '../../helpers/pool-proxies';

/**
 * A SOCKS5 pool proxy with credentials (the tests' own loopback SOCKS5 server): the server's
 * fetches through undici's SOCKS client, the browsers' egress proxy through proxy-chain's, and
 * the health check's SOCKS5 handshake.
 */
const PASSWORD = 'Socks-Hive-7531';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let socks: Awaited<ReturnType<typeof startSocks5Proxy>>;

beforeAll(async () => {
  site = await startFixtureSite();
  socks = await startSocks5Proxy({ username: 'bee', password: PASSWORD });
});
afterAll(async () => {
  await socks?.close();
  await site?.close();
});

const sitePort = () => Number(new URL(site.url('/')).port);

describe('a SOCKS5 proxy in the pool', () => {
  it("carries the server's GETs, with its credentials", async () => {
    const pool = createProxyPool({ entries: parseProxyPool({ list: socks.url }), log: silentLog });
    const egress = createEgress({ allowPrivateNetworks: true, proxyPool: pool });
    try {
      const response = await egress.get(site.url('/?over-socks'), { timeoutMs: 5_000, maxBytes: 1 << 20 });
      expect(response.body).toContain('Welcome to the hive');
      expect(socks.seen).toContain(`127.0.0.1:${sitePort()}`);
      expect(pool.stats()[0]).toMatchObject({ successes: 1, failures: 0 });
    } finally {
      await egress.close();
    }
  });

  it("carries the launched browsers' connections from their egress proxy", async () => {
    const pool = createProxyPool({ entries: parseProxyPool({ list: socks.url }), log: silentLog });
    const egress = await startBrowserEgressProxy({
      policy: { allowPrivateNetworks: true, allowedPrivateHosts: [] },
      proxyPool: pool,
      log: silentLog,
    });
    const before = socks.seen.length;
    try {
      const proxy = new URL(egress.url);
      const body = await new Promise<string>((resolve, reject) => {
        const outgoing = request(
          {
            host: proxy.hostname,
            port: proxy.port,
            path: site.url('/?browser-over-socks'),
            headers: { connection: 'close' },
          },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () => resolve(text));
          },
        );
        outgoing.on('error', reject);
        outgoing.end();
      });
      expect(body).toContain('Welcome to the hive');
      expect(socks.seen.length).toBeGreaterThan(before);
      await expect.poll(() => pool.stats()[0]?.successes).toBe(1);
    } finally {
      await egress.close();
    }
  });

  it('passes a health check through it, and fails one with the wrong password', async () => {
    const wrong = socks.url.replace(PASSWORD, 'not-it');
    const pool = createProxyPool({
      entries: parseProxyPool({ list: `${socks.url}, ${wrong}` }),
      log: silentLog,
      checkTarget: { host: '127.0.0.1', port: sitePort() },
    });
    await pool.checkNow();
    const [right, refused] = pool.stats();
    expect(right?.healthy).toBe(true);
    expect(refused).toMatchObject({ healthy: false, lastError: 'the SOCKS proxy refused the credentials' });
  });
});
