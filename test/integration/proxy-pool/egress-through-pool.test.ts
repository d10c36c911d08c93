import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgress } from '../../../server/platform/egress';
import { silentLog } from '../../../server/platform/log/log';
import {
  createProxyPool,
  parseProxyPool,
  registerProxyPoolMetrics,
  withProxyRotation,
} from '../../../server/platform/proxy-pool';
import { startFixtureSite } from '../../helpers/fixture-site';
import { type PoolProxy, startPoolProxy } from '../../helpers/pool-proxies';

/**
 * The server's own fetches (the HTTP fast path, robots.txt, sitemaps) through the proxy pool, on
 * loopback: a fixture site, two HTTP proxies (one asking for credentials) and one that is down.
 */
const PASSWORD = 'pollen-Pa55word';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let guarded: PoolProxy;
let plain: PoolProxy;
let dead: PoolProxy;

beforeAll(async () => {
  site = await startFixtureSite();
  guarded = await startPoolProxy({ username: 'bee', password: PASSWORD });
  plain = await startPoolProxy();
  dead = await startPoolProxy();
  await dead.close();
});
afterAll(async () => {
  await Promise.all([guarded?.close(), plain?.close()]);
  await site?.close();
});

const poolOf = (list: string) => createProxyPool({ entries: parseProxyPool({ list }), log: silentLog });
const GET = { timeoutMs: 5_000, maxBytes: 1 << 20 };

describe('the egress through the proxy pool', () => {
  it('fetches through the pool, one proxy per site, with the proxy credentials', async () => {
    const pool = poolOf(`${guarded.url}, ${plain.url}`);
    const egress = createEgress({ allowPrivateNetworks: true, proxyPool: pool });
    try {
      for (const page of ['/?a', '/?b', '/?c']) {
        const response = await egress.get(site.url(page), GET);
        expect(response.status).toBe(200);
        expect(response.body).toContain('Welcome to the hive');
      }
      // The first proxy in turn took the site, and kept it.
      expect(guarded.seen.filter((seen) => seen.includes('?'))).toEqual([
        site.url('/?a'),
        site.url('/?b'),
        site.url('/?c'),
      ]);
      expect(pool.stats().find((stat) => stat.id === guarded.id)).toMatchObject({
        successes: 3,
        failures: 0,
      });
    } finally {
      await egress.close();
    }
  });

  it('goes on through the next proxy when one cannot be reached, and counts both', async () => {
    const pool = poolOf(`${dead.url}, ${plain.url}`);
    const registry = new Registry();
    registerProxyPoolMetrics(registry, pool);
    const egress = createEgress({ allowPrivateNetworks: true, proxyPool: pool });
    try {
      const response = await egress.get(site.url('/?rotated'), GET);
      expect(response.status).toBe(200);
      expect(plain.seen).toContain(site.url('/?rotated'));
      // The site stays with the proxy that worked.
      await egress.get(site.url('/?after'), GET);
      expect(plain.seen).toContain(site.url('/?after'));
      const metrics = await registry.metrics();
      expect(metrics).toContain(
        `tabhive_proxy_requests_total{proxy="${dead.id}",country="",outcome="failure"} 1`,
      );
      expect(metrics).toContain(
        `tabhive_proxy_requests_total{proxy="${plain.id}",country="",outcome="success"} 2`,
      );
      expect(metrics).toContain(`tabhive_proxy_healthy{proxy="${plain.id}",country=""} 1`);
    } finally {
      await egress.close();
    }
  });

  it('fails when every proxy fails, without the credentials in the error', async () => {
    const wrong = guarded.url.replace(PASSWORD, `${PASSWORD}-wrong`);
    const pool = poolOf(`${wrong}, ${dead.url}`);
    const egress = createEgress({ allowPrivateNetworks: true, proxyPool: pool });
    try {
      const failure = await egress.get(site.url('/?refused'), GET).then(
        () => new Error('fetched through a proxy that should have failed'),
        (err: unknown) => err as Error,
      );
      expect(failure.message).not.toBe('fetched through a proxy that should have failed');
      expect(`${failure.message} ${String(failure.stack)}`).not.toContain(PASSWORD);
      expect(pool.stats().map((stat) => stat.failures)).toEqual([1, 1]);
    } finally {
      await egress.close();
    }
  });

  it('still holds the URL policy: a private address is refused before any proxy is asked', async () => {
    const pool = poolOf(plain.url);
    const egress = createEgress({ allowPrivateNetworks: false, proxyPool: pool });
    const before = plain.seen.length;
    try {
      await expect(egress.get(site.url('/?private'), GET)).rejects.toMatchObject({ code: 'SSRF_BLOCKED' });
      expect(plain.seen.length).toBe(before);
    } finally {
      await egress.close();
    }
  });
});

describe('page tasks with proxy rotation', () => {
  /** A page task over the egress: what a browser task does, through whichever proxy holds the site. */
  const fetchTask =
    (egress: ReturnType<typeof createEgress>) =>
    async (spec: { url: string; location?: { country?: string } }) => {
      const response = await egress.get(spec.url, GET);
      return { statusCode: response.status, body: response.body };
    };

  it('runs a page that looks blocked again through the next proxy', async () => {
    const pool = poolOf(`${guarded.url}, ${plain.url}`);
    const egress = createEgress({ allowPrivateNetworks: true, proxyPool: pool });
    guarded.blocking = true;
    try {
      const run = withProxyRotation(fetchTask(egress), pool, {
        verdict: (page) => (page.statusCode === 403 ? 'blocked' : 'ok'),
        proxyFailure: () => false,
      });
      const page = await run({ url: site.url('/?blocked-once') }, { timeoutMs: 10_000 });
      expect(page.statusCode).toBe(200);
      expect(plain.seen).toContain(site.url('/?blocked-once'));
      expect(pool.stats().find((stat) => stat.id === guarded.id)?.blocked).toBe(1);
    } finally {
      guarded.blocking = false;
      await egress.close();
    }
  });

  it('pins the page to a proxy of location.country, and refuses a country the pool lacks', async () => {
    const pool = poolOf(`${guarded.url} DE, ${plain.url} FR`);
    const egress = createEgress({ allowPrivateNetworks: true, proxyPool: pool });
    try {
      const run = withProxyRotation(fetchTask(egress), pool, {
        verdict: () => 'ok',
        proxyFailure: () => false,
      });
      await run({ url: site.url('/?in-france'), location: { country: 'FR' } }, { timeoutMs: 10_000 });
      expect(plain.seen).toContain(site.url('/?in-france'));
      expect(guarded.seen).not.toContain(site.url('/?in-france'));
      await expect(
        run({ url: site.url('/?in-japan'), location: { country: 'JP' } }, { timeoutMs: 10_000 }),
      ).rejects.toMatchObject({ code: 'NO_PROXY_FOR_COUNTRY' });
    } finally {
      await egress.close();
    }
  });
});
