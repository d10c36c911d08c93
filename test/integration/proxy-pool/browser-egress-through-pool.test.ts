import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserEgressProxy } from '../../../server/platform/browser-egress';
import { silentLog } from '../../../server/platform/log/log';
import { createProxyPool, parseProxyPool } from '../../../server/platform/proxy-pool';
import { startFixtureSite } from '../../helpers/fixture-site';
import { type PoolProxy, startPoolProxy } from '../../helpers/pool-proxies';

/** A GET for `url` through the proxy at `proxyUrl`, as Chromium sends one (absolute form). */
function viaProxy(proxyUrl: string, url: string) {
  const proxy = new URL(proxyUrl);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = request(
      { host: proxy.hostname, port: proxy.port, path: url, headers: { connection: 'close' } },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let guarded: PoolProxy;
let dead: PoolProxy;
const PASSWORD = 'comb-Pa55word';

beforeAll(async () => {
  site = await startFixtureSite();
  guarded = await startPoolProxy({ username: 'bee', password: PASSWORD });
  dead = await startPoolProxy();
  await dead.close();
});
afterAll(async () => {
  await guarded?.close();
  await site?.close();
});

describe("the launched browsers' egress proxy with a proxy pool", () => {
  it("forwards each connection through its site's pool proxy and counts it", async () => {
    const pool = createProxyPool({ entries: parseProxyPool({ list: guarded.url }), log: silentLog });
    const egress = await startBrowserEgressProxy({
      policy: { allowPrivateNetworks: true, allowedPrivateHosts: [] },
      proxyPool: pool,
      log: silentLog,
    });
    try {
      const response = await viaProxy(egress.url, site.url('/?through-pool'));
      expect(response.status).toBe(200);
      expect(response.body).toContain('Welcome to the hive');
      expect(guarded.seen).toContain(site.url('/?through-pool'));
      await expect.poll(() => pool.stats()[0]?.successes).toBe(1);
    } finally {
      await egress.close();
    }
  });

  it("answers with proxy-chain's upstream error status when the proxy is down, and counts a failure", async () => {
    const pool = createProxyPool({ entries: parseProxyPool({ list: dead.url }), log: silentLog });
    const egress = await startBrowserEgressProxy({
      policy: { allowPrivateNetworks: true, allowedPrivateHosts: [] },
      proxyPool: pool,
      log: silentLog,
    });
    try {
      const response = await viaProxy(egress.url, site.url('/?down'));
      expect(response.status).toBeGreaterThanOrEqual(590);
      expect(response.status).toBeLessThanOrEqual(599);
      await expect.poll(() => pool.stats()[0]?.failures).toBe(1);
    } finally {
      await egress.close();
    }
  });

  it('still refuses what the URL policy refuses, before any proxy is asked', async () => {
    const pool = createProxyPool({ entries: parseProxyPool({ list: guarded.url }), log: silentLog });
    const egress = await startBrowserEgressProxy({
      policy: { allowPrivateNetworks: false, allowedPrivateHosts: [] },
      proxyPool: pool,
      log: silentLog,
    });
    const before = guarded.seen.length;
    try {
      expect((await viaProxy(egress.url, site.url('/?private'))).status).toBe(403);
      expect(guarded.seen.length).toBe(before);
      expect(pool.stats()[0]).toMatchObject({ successes: 0, failures: 0 });
    } finally {
      await egress.close();
    }
  });
});
