import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/platform/config';
import {
  createLocalLauncher,
  type LocalLauncher,
} from '../../../server/browsers/launcher/create-local-launcher';
import { startStealthBrowsers } from '../../../server/browsers/launcher/start-stealth-browsers';
import { LAUNCH_CONFIG_FILE } from '../../../shared/protocol/launch-config';
import { EGRESS_REFUSAL_HEADER } from '../../../shared/url/egress-refusal';
import { commandLineFlag, fakeChromeCommandLine, fakeChromeSetUp } from '../../helpers/fake-chrome';

/** The status and refusal header of a GET for `url` through the proxy at `proxyUrl`. */
function viaProxy(proxyUrl: string, url: string) {
  const proxy = new URL(proxyUrl);
  return new Promise<{ status: number; refusal: unknown }>((resolve, reject) => {
    const outgoing = request({ host: proxy.hostname, port: proxy.port, path: url }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, refusal: response.headers[EGRESS_REFUSAL_HEADER] });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const STRICT = { policy: { allowPrivateNetworks: false, allowedPrivateHosts: [] } };

describe("launched browsers' egress", () => {
  let dir: string;
  let launchers: LocalLauncher[] = [];
  afterEach(async () => {
    await Promise.all(launchers.map((launcher) => launcher.stop()));
    launchers = [];
    await rm(dir, { recursive: true, force: true });
  });

  async function setUp() {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-launch-egress-'));
    return fakeChromeSetUp(dir);
  }

  it('sends every byte of a pool browser through its proxy, loopback included, but the hub', async () => {
    const pool = createLocalLauncher({ ...(await setUp()), count: 1, egress: STRICT });
    launchers = [pool];
    await pool.start();
    const args = await fakeChromeCommandLine(dir, pool.pids()[0] as number);
    const proxyUrl = commandLineFlag(args, '--proxy-server') ?? '';
    expect(proxyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(commandLineFlag(args, '--proxy-bypass-list')).toBe('<-loopback>;127.0.0.1:9');
    expect(commandLineFlag(args, '--force-webrtc-ip-handling-policy')).toBe('disable_non_proxied_udp');
    const staged = commandLineFlag(args, '--load-extension') ?? '';
    expect(JSON.parse(await readFile(path.join(staged, LAUNCH_CONFIG_FILE), 'utf8'))).toMatchObject({
      egressProxy: true,
    });
    expect(await viaProxy(proxyUrl, 'http://127.0.0.1:9/')).toEqual({
      status: 403,
      refusal: 'private-network; 127.0.0.1',
    });

    await pool.stop();
    launchers = [];
    await expect(viaProxy(proxyUrl, 'http://127.0.0.1:9/')).rejects.toThrow(/ECONNREFUSED/);
  });

  it("puts a stealth browser's upstream proxy behind the egress proxy", async () => {
    const stealth = startStealthBrowsers({
      ...(await setUp()),
      config: loadConfig({ STEALTH_PROXY_URL: 'http://10.0.0.2:3128', STEALTH_BROWSERS: '1' }),
      egress: STRICT,
    }) as LocalLauncher;
    launchers = [stealth];
    await stealth.start();
    const args = await fakeChromeCommandLine(dir, stealth.pids()[0] as number);
    const proxyUrl = commandLineFlag(args, '--proxy-server') ?? '';
    expect(proxyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Judged by what the name says before the upstream proxy is asked.
    expect(await viaProxy(proxyUrl, 'http://169.254.169.254/latest/meta-data/')).toEqual({
      status: 403,
      refusal: 'metadata; 169.254.169.254',
    });
  });

  it('launches without a proxy when the operator allows private networks', async () => {
    const pool = createLocalLauncher({
      ...(await setUp()),
      count: 1,
      egress: { policy: { allowPrivateNetworks: true, allowedPrivateHosts: [] } },
    });
    launchers = [pool];
    await pool.start();
    const args = await fakeChromeCommandLine(dir, pool.pids()[0] as number);
    expect(commandLineFlag(args, '--proxy-server')).toBeUndefined();
  });
});
