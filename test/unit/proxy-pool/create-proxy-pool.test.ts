import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLog } from '../../../server/platform/log/log';
import { createProxyPool, parseProxyPool, type ProxyPool } from '../../../server/platform/proxy-pool';
import { type PoolProxy, startPoolProxy } from '../../helpers/pool-proxies';

const log = silentLog;

const poolOf = (list: string, options: Partial<Parameters<typeof createProxyPool>[0]> = {}): ProxyPool =>
  createProxyPool({ entries: parseProxyPool({ list }), log, ...options });

describe('the proxy pool', () => {
  it('keeps one proxy per site, and takes the proxies in turn across sites', () => {
    const pool = poolOf('http://a.test:1, http://b.test:1, http://c.test:1');
    const first = pool.proxyFor('shop.example');
    for (let page = 0; page < 5; page += 1) expect(pool.proxyFor('shop.example').id).toBe(first.id);
    const others = ['one.example', 'two.example'].map((host) => pool.proxyFor(host).id);
    expect(new Set([first.id, ...others]).size).toBe(3);
  });

  it('lets a site go after the sticky time', () => {
    let now = 0;
    const pool = poolOf('http://a.test:1, http://b.test:1', { stickyMs: 1_000, now: () => now });
    const first = pool.proxyFor('shop.example').id;
    now = 500;
    expect(pool.proxyFor('shop.example').id).toBe(first);
    now = 2_000;
    expect(pool.proxyFor('shop.example').id).not.toBe(first);
  });

  it('pins a site to a proxy of the country asked for, and says when the pool has none', () => {
    const pool = poolOf('http://de.test:1 DE, http://fr.test:1 FR, http://fr2.test:1 FR');
    expect(pool.claim('shop.example', 'fr').country).toBe('FR');
    expect(pool.proxyFor('shop.example').country).toBe('FR');
    expect(pool.claim('shop.example', 'DE').id).toBe('de.test:1');
    // Firecrawl's default location asks for no country.
    expect(pool.claim('other.example', 'US-generic')).toBeDefined();
    expect(() => pool.claim('shop.example', 'JP')).toThrow(
      expect.objectContaining({ code: 'NO_PROXY_FOR_COUNTRY', kind: 'invalid-input' }),
    );
  });

  it('rotates a site to the next proxy of its country that was not tried, then to none', () => {
    const pool = poolOf('http://de.test:1 DE, http://fr.test:1 FR, http://fr2.test:1 FR');
    const first = pool.claim('shop.example', 'FR');
    const second = pool.rotate('shop.example', new Set([first.id]));
    expect(second).toMatchObject({ country: 'FR' });
    expect(second?.id).not.toBe(first.id);
    expect(pool.proxyFor('shop.example').id).toBe(second?.id);
    expect(pool.rotate('shop.example', new Set([first.id, second!.id]))).toBeUndefined();
  });

  it('counts outcomes per proxy and tells its listeners', () => {
    const pool = poolOf('http://a.test:1');
    const told: string[] = [];
    pool.onOutcome((entry, outcome) => told.push(`${entry.id} ${outcome}`));
    pool.record('a.test:1', 'success');
    pool.record('a.test:1', 'failure');
    pool.record('a.test:1', 'blocked');
    expect(pool.stats()).toEqual([
      {
        id: 'a.test:1',
        protocol: 'http',
        country: null,
        healthy: true,
        successes: 1,
        failures: 1,
        blocked: 1,
        lastError: null,
      },
    ]);
    expect(told).toEqual(['a.test:1 success', 'a.test:1 failure', 'a.test:1 blocked']);
  });
});

describe('health checks on loopback proxies', () => {
  let live: PoolProxy;
  let dead: PoolProxy;
  let guarded: PoolProxy;
  let target: Server;
  let targetPort: number;

  beforeAll(async () => {
    live = await startPoolProxy();
    dead = await startPoolProxy();
    await dead.close();
    guarded = await startPoolProxy({ username: 'bee', password: 'hive-secret' });
    target = createServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetPort = (target.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await Promise.all([live.close(), guarded.close()]);
    await new Promise((resolve) => target.close(resolve));
  });

  it('marks a proxy that refuses connections unhealthy and skips it until it is healthy again', async () => {
    const pool = poolOf(`${dead.url}, ${live.url}`);
    await pool.checkNow();
    expect(pool.stats().map(({ id, healthy }) => ({ id, healthy }))).toEqual([
      { id: dead.id, healthy: false },
      { id: live.id, healthy: true },
    ]);
    expect(pool.stats()[0]?.lastError).toContain('ECONNREFUSED');
    for (const host of ['a.example', 'b.example', 'c.example', 'd.example']) {
      expect(pool.proxyFor(host).id).toBe(live.id);
    }
  });

  it('moves a site off a proxy that fell ill, while another is well', async () => {
    const pool = poolOf(`${live.url}, ${guarded.url}`);
    const sites = ['a.example', 'b.example'];
    const before = sites.map((host) => pool.proxyFor(host).id);
    expect(new Set(before).size).toBe(2);
    await guarded.close();
    await pool.checkNow();
    expect(sites.map((host) => pool.proxyFor(host).id)).toEqual([live.id, live.id]);
    guarded = await startPoolProxy({ username: 'bee', password: 'hive-secret' });
  });

  it('with a check target, tunnels through each proxy, which proves its credentials', async () => {
    const wrong = guarded.url.replace('hive-secret', 'wrong');
    const pool = poolOf(`${live.url}, ${guarded.url}, ${wrong}`, {
      checkTarget: { host: '127.0.0.1', port: targetPort },
    });
    await pool.checkNow();
    const [plain, right, refused] = pool.stats();
    expect(plain?.healthy).toBe(true);
    expect(right?.healthy).toBe(true);
    expect(refused).toMatchObject({ healthy: false, lastError: 'CONNECT answered 407' });
    expect(JSON.stringify(pool.stats())).not.toContain('hive-secret');
  });

  it('checks on its own every interval once started', async () => {
    const pool = poolOf(`${dead.url}, ${live.url}`, { checkIntervalMs: 50 });
    pool.start();
    try {
      await expect.poll(() => pool.stats()[0]?.healthy, { timeout: 5_000 }).toBe(false);
    } finally {
      pool.close();
    }
  });
});

describe('a claimed site whose proxy falls ill', () => {
  it('moves to a healthy proxy of the same country', async () => {
    const live = await startPoolProxy();
    const dying = await startPoolProxy();
    const other = await startPoolProxy();
    try {
      const pool = createProxyPool({
        entries: parseProxyPool({ list: `${dying.url} FR, ${other.url} DE, ${live.url} FR` }),
        log: silentLog,
      });
      expect(pool.claim('shop.example', 'FR').id).toBe(dying.id);
      await dying.close();
      await pool.checkNow();
      expect(pool.proxyFor('shop.example').id).toBe(live.id);
    } finally {
      await Promise.all([live.close(), dying.close(), other.close()]);
    }
  });
});
