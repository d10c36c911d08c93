import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { HUB_PATH } from '../shared/protocol/messages';
import type { Config } from './platform/config';
import type { BrowserHub } from './browsers/hub';
import { createBrowserTokens } from './browsers/launch-tokens';
import {
  createLocalLauncher,
  type LocalLauncher,
  DEFAULT_EXTENSION_DIR,
  findChrome,
  launchedBrowserSetup,
  startStealthBrowsers,
  startSessionBrowsers,
} from './browsers/launcher';
import { createLifecycle } from './platform/lifecycle';
import type { Log } from './platform/log';
import { proxyPoolFromConfig } from './platform/proxy-pool';
import { holdEarlyTraffic } from './hold-early-traffic';
import { listenProblem, storeProblem } from './pre-start-checks';
import type { RunningTabhive, StartOptions } from './running-tabhive';

export { DEFAULT_EXTENSION_DIR, holdEarlyTraffic };
export type { RunningTabhive, StartOptions };

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);
/** Browsers on this machine reach a wildcard listener through loopback. */
const reachableHost = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);

/**
 * Composes Tabhive from its configuration on a given HTTP server: the API, the browser hub on the
 * same port, and the local browser pool. main.ts calls it; end-to-end tests call it with their
 * own configuration and port 0.
 *
 * Chromium takes longer to start than anything else here, so it starts first, as soon as the port
 * is known, and the store opens and the API is composed while it starts; what reaches the port
 * meanwhile (the browser's hub socket, a /health poll) waits for the composed API.
 */
export async function startTabhive({
  config,
  server,
  log,
  extensionDir = DEFAULT_EXTENSION_DIR,
  extraChromeArgs,
  browserRelaunchMs,
  ...options
}: StartOptions & { config: Config; server: Server; log: Log }): Promise<RunningTabhive> {
  // Fail before listening when the pool cannot start: a server that answers but can never scrape misleads.
  let chromePath: string | undefined;
  if (config.BROWSERS > 0) {
    chromePath = findChrome(config.CHROME_PATH);
    if (!existsSync(path.join(extensionDir, 'manifest.json'))) {
      throw new Error(`The extension is not built (${extensionDir} has no manifest.json): run npm run build`);
    }
  }

  // The proxy pool's list is checked before anything starts; its health checks start with the rest.
  const proxyPool = proxyPoolFromConfig(config, log);

  // A store held by another process would stop the start only once the browsers are launched.
  const heldStore = await storeProblem(config);
  if (heldStore !== undefined) throw new Error(heldStore);

  const early = holdEarlyTraffic(server);
  try {
    await listen(server, config);
  } catch (err) {
    early.drop();
    throw new Error(listenProblem(config, err), { cause: err });
  }
  const { port } = server.address() as AddressInfo;
  const hubUrl = `ws://${urlHost(reachableHost(config.HOST))}:${port}${HUB_PATH}`;
  const tokens = createBrowserTokens();
  let hub: BrowserHub | undefined;
  // What every launched browser is launched with; its egress proxy enforces the server's URL policy.
  const setup = launchedBrowserSetup({
    config,
    extensionDir,
    hubUrl,
    tokens,
    log,
    lookup: options.lookup,
    proxyPool,
    extraArgs: extraChromeArgs,
    // The launchers' watchdog: a launched browser counts as up while the browser that spent its
    // launch token has a socket on the hub. Until the hub serves, none can have one, nor is blamed.
    isConnected: (launchToken: string) => {
      if (hub === undefined) return true;
      const browserId = tokens.browserIdOf(launchToken);
      return browserId !== undefined && hub.isBrowserConnected(browserId);
    },
    disconnectedRelaunchMs: browserRelaunchMs,
  });
  // What is started registers its close next to its start; a stop, or a failed start, closes all
  // of it, the last started first (the browsers last: what the composition made uses them).
  const lifecycle = createLifecycle(log);
  let launcher: LocalLauncher | undefined;
  let stealthLauncher: LocalLauncher | undefined;
  try {
    if (proxyPool !== undefined) {
      lifecycle.use('proxy pool', { close: () => proxyPool.close() });
      proxyPool.start();
    }
    if (chromePath !== undefined) {
      const started = createLocalLauncher({ ...setup, count: config.BROWSERS, chromePath });
      launcher = started;
      lifecycle.use('browser pool', { close: () => started.stop() });
      await started.start();
    }
    const stealth = startStealthBrowsers({ ...setup, config, chromePath });
    stealthLauncher = stealth;
    if (stealth !== undefined) {
      lifecycle.use('stealth browsers', { close: () => stealth.stop() });
      await stealth.start();
    }
    // Launched on demand, one per browser session: none runs yet.
    const sessionBrowsers = startSessionBrowsers({ ...setup, config, chromePath });
    if (sessionBrowsers !== undefined)
      lifecycle.use('session browsers', { close: () => sessionBrowsers.stop() });
    // Imported only now: loading the server's code and dependencies takes longer than launching.
    const { composeTabhive } = await import('./compose-tabhive');
    return await composeTabhive({
      config,
      server,
      log,
      lifecycle,
      tokens,
      launcher,
      stealthLauncher,
      sessionBrowsers,
      proxyPool,
      url: `http://${urlHost(config.HOST)}:${port}`,
      serve: (composedHub, handleRequest, handleUpgrade) => {
        hub = composedHub;
        early.release(handleRequest, handleUpgrade);
      },
      ...options,
    });
  } catch (err) {
    // Nothing of a failed start outlives it: not the browsers, the port, nor what waited on it.
    early.drop();
    server.close();
    await lifecycle.close();
    throw err;
  }
}

function listen(server: Server, config: Config) {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
