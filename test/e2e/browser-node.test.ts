import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserNode, type BrowserNode } from '../../server/browsers/browser-node/start-browser-node';
import { findChrome } from '../../server/browsers/launcher/find-chrome';
import { DEFAULT_EXTENSION_DIR } from '../../server/browsers/launcher/extension-dir';
import { silentLog } from '../../server/platform/log/log';
import { startCrawlSite } from '../helpers/crawl-site';
import { ferretDbForTests, startFerretDb, type FerretDb } from '../helpers/ferretdb';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

type Tabhive = Awaited<ReturnType<typeof startTestTabhive>>;

const ADMIN_API_KEY = 'admin-key-for-browser-node-tests-0001';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const binary = ferretDbForTests();

/** Two API instances on one MongoDB, neither with browsers of its own: the nodes bring them. */
describe.skipIf(binary === undefined)('browser nodes join a remote hub', () => {
  let ferret: FerretDb;
  let site: Awaited<ReturnType<typeof startCrawlSite>>;
  let one: Tabhive;
  let two: Tabhive;
  const nodes: BrowserNode[] = [];

  const admin = async (method: string, pathname: string, body?: unknown) => {
    const response = await fetch(`${one.url}/admin/v1${pathname}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_API_KEY}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the admin API's answer, asserted below
    return { status: response.status, json: (await response.json()) as any };
  };
  const node = async (serverUrl: string, token: string) => {
    const started = await startBrowserNode({
      serverUrl,
      token,
      browsers: 1,
      chromePath: findChrome(process.env.CHROME_PATH),
      extensionDir: DEFAULT_EXTENSION_DIR,
      log: silentLog,
    });
    nodes.push(started);
    return started;
  };

  beforeAll(async () => {
    ferret = await startFerretDb(binary!);
    site = await startCrawlSite({ slowMs: 4_000, slowPages: 2 });
    // No fast path: every page goes to a browser, so each scrape shows where it ran.
    const env = {
      MONGODB_URL: ferret.url('tabhive_nodes'),
      ADMIN_API_KEY,
      HTTP_FAST_PATH: 'false',
      TEAM_CONCURRENCY: '50',
    };
    one = await startTestTabhive({ browsers: 0, env });
    two = await startTestTabhive({ browsers: 0, env });
  }, 60_000);
  afterAll(async () => {
    for (const started of nodes) await started.stop();
    await one?.stop();
    await two?.stop();
    await site?.close();
    await ferret?.stop();
  });

  it('a pool node token lets a node join; a scrape sent to the other instance runs on its browser', async () => {
    const created = await admin('POST', '/node-tokens', { label: 'rack 1' });
    expect(created.status).toBe(200);
    expect(created.json.data).toMatchObject({ team: null, label: 'rack 1', revokedAt: null });
    expect(created.json.data.token).toMatch(/^tbn_/);
    const listed = await admin('GET', '/node-tokens');
    expect(JSON.stringify(listed.json)).not.toContain(created.json.data.token);

    await node(one.url, created.json.data.token);
    await waitUntil(() => one.tabhive.hub.connectedBrowsers('basic') === 1, 20_000, 'the node browser');
    expect(two.tabhive.hub.connectedBrowsers()).toBe(0);

    // Instance two has no browser: the task goes through the store to instance one's.
    await waitUntil(
      async () => (await two.get('/ready')).status === 200 || (await two.get('/health')).json.ok === true,
      10_000,
      'instance two up',
    );
    const scraped = await two.post('/v2/scrape', {
      url: site.url('/docs/page-1.html'),
      formats: ['markdown'],
    });
    expect(scraped.status).toBe(200);
    expect(scraped.json.data.markdown).toContain('Doc 1');
    expect(one.tabhive.hub.engineStats()).toEqual([expect.objectContaining({ kind: 'node', tasks: 1 })]);
  });

  it('a team node token serves that team only', async () => {
    const team = await admin('POST', '/teams', { id: 'acme' });
    expect(team.status).toBe(200);
    const refused = await admin('POST', '/node-tokens', { team: 'no-such-team' });
    expect(refused.status).toBe(404);
    const created = await admin('POST', '/node-tokens', { team: 'acme' });
    expect(created.json.data.team).toBe('acme');
    await node(two.url, created.json.data.token);
    await waitUntil(() => two.tabhive.hub.connectedBrowsers('basic') === 1, 20_000, 'the team node browser');
    // The pool's tasks do not go to acme's browser: two has no shared tab to offer.
    expect(two.tabhive.hub.hasPoolBrowser('basic')).toBe(false);
    expect(two.tabhive.hub.hasPoolBrowser('basic', 'acme')).toBe(true);
    expect(two.tabhive.hub.spareSlots('basic')).toBe(0);
  });

  it('a revoked node token: its browsers are disconnected and cannot come back', async () => {
    const created = await admin('POST', '/node-tokens', { label: 'to revoke' });
    const before = one.tabhive.hub.connectedBrowsers();
    await node(one.url, created.json.data.token);
    await waitUntil(() => one.tabhive.hub.connectedBrowsers() === before + 1, 20_000, 'the node browser');
    const revoked = await admin('DELETE', `/node-tokens/${created.json.data.id}`);
    expect(revoked.json.data.revokedAt).not.toBeNull();
    await waitUntil(
      () => one.tabhive.hub.connectedBrowsers() === before,
      10_000,
      'the revoked browser to leave',
    );
    const again = await admin('DELETE', `/node-tokens/${created.json.data.id}`);
    expect(again.status).toBe(404);
  });

  it('SIGTERM drains the node: the running scrape completes, nothing new is taken, the process exits 0', async () => {
    // The first node's browser stops taking tasks, so the slow scrape below lands on the node process's.
    expect(await nodes[0]!.drain(0)).toEqual({ unfinished: 0 });
    await waitUntil(() => one.tabhive.hub.poolTabs('basic') === 0, 5_000, 'the first node to drain');
    const created = await admin('POST', '/node-tokens', { label: 'drained' });
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/browsers/browser-node/main.ts', '--browsers', '1', '--drain-seconds', '30'],
      {
        cwd: ROOT,
        env: { ...process.env, TABHIVE_SERVER_URL: one.url, TABHIVE_NODE_TOKEN: created.json.data.token },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, 'exit');
    try {
      await waitUntil(() => one.tabhive.hub.poolTabs('basic') > 0, 30_000, 'the node process browser');
      const tabs = one.tabhive.hub.poolTabs('basic');
      const slow = one.post('/v2/scrape', {
        url: site.url('/slow/1.html'),
        formats: ['markdown'],
        timeout: 30_000,
      });
      await waitUntil(() => one.tabhive.hub.spareSlots('basic') < tabs, 10_000, 'the slow scrape to start');
      child.kill('SIGTERM');
      await waitUntil(() => one.tabhive.hub.poolTabs('basic') === 0, 10_000, 'the node to stop taking tasks');
      const answer = await slow;
      expect(answer.status).toBe(200);
      expect(answer.json.data.markdown).toContain('Slow /slow/1.html');
      const [code] = await exited;
      expect(code).toBe(0);
      expect(output).toContain('browser node draining');
      // Only the first node's (drained) browser is left on instance one.
      await waitUntil(
        () => one.tabhive.hub.connectedBrowsers() === 1,
        10_000,
        'the node process browser to leave',
      );
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});
