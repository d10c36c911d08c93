import { existsSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { HUB_PATH } from '../shared/protocol/messages';
import type { Config } from './platform/config';
import { createBrowserTokens, type BrowserTokens } from './browsers/hub/browser-tokens';
import type { BrowserHub } from './browsers/hub/create-browser-hub';
import type { LiveSessionDirectory } from './products/browser-sessions/live-session';
import type { BrowserSlots } from './products/jobs/browser-slots';
import type { JobRunner } from './products/jobs/create-job-runner';
import { createLocalLauncher, type LocalLauncher } from './browsers/launcher/create-local-launcher';
import { findChrome } from './browsers/launcher/find-chrome';
import { launchedBrowserSetup } from './browsers/launcher/launched-browser-setup';
import { startStealthBrowsers } from './browsers/launcher/start-stealth-browsers';
import { startSessionBrowsers } from './browsers/launcher/start-session-browsers';
import type { Log } from './platform/log/log';
import type { Stores } from './platform/store/create-stores';
import type { LookupFn } from './platform/url-policy/create-url-policy';

import { DEFAULT_EXTENSION_DIR } from './browsers/launcher/extension-dir';

export { DEFAULT_EXTENSION_DIR };

export interface RunningTabhive {
  /** Base URL of the API, e.g. http://127.0.0.1:3002 */
  url: string;
  hub: BrowserHub;
  stores: Stores;
  launcher: LocalLauncher | undefined;
  /** Launch tokens of this server's hub (tests launch a browser of their own with one). */
  browserTokens: BrowserTokens;
  jobRunner: JobRunner;
  /** The browser tabs the job runner's pages hold now, out of their share. */
  jobBrowserSlots: BrowserSlots;
  /** The running browser sessions, for the live view and the CDP relay. */
  liveSessions: LiveSessionDirectory;
  generatedApiKey: string | undefined;
  apiKeyFile: string | undefined;
  stop(): Promise<void>;
  killBrowsersNow(): void;
}

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);
/** Browsers on this machine reach a wildcard listener through loopback. */
const reachableHost = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);

/** Options of a start that tests set; main.ts leaves them all unset. */
export interface StartOptions {
  extensionDir?: string;
  /** Tests only: extra command-line flags for launched browsers. */
  extraChromeArgs?: readonly string[];
  /** Tests only: the webhook retry schedule instead of 1, 5 and 15 minutes. */
  webhookRetryDelaysMs?: readonly number[];
  /** Tests only: DNS for the URL policy and the egress, so that public-looking names stay local. */
  lookup?: LookupFn;
  /** Tests only: how long a launched browser may stay disconnected before it is relaunched. */
  browserRelaunchMs?: number;
}

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

  const early = holdEarlyTraffic(server);
  await listen(server, config);
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
  let launcher: LocalLauncher | undefined;
  let stealthLauncher: LocalLauncher | undefined;
  try {
    if (chromePath !== undefined) {
      launcher = createLocalLauncher({ ...setup, count: config.BROWSERS, chromePath });
      await launcher.start();
    }
    stealthLauncher = startStealthBrowsers({ ...setup, config, chromePath });
    await stealthLauncher?.start();
    // Launched on demand, one per browser session: none runs yet.
    const sessionBrowsers = startSessionBrowsers({ ...setup, config, chromePath });
    // Imported only now: loading the server's code and dependencies takes longer than launching.
    const { composeTabhive } = await import('./compose-tabhive');
    return await composeTabhive({
      config,
      server,
      log,
      tokens,
      launcher,
      stealthLauncher,
      sessionBrowsers,
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
    await launcher?.stop();
    await stealthLauncher?.stop();
    throw err;
  }
}

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

function listen(server: Server, config: Config) {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Holds the requests and WebSocket upgrades that reach a listening server before it has handlers,
 * and hands them over once it has. A browser's hub socket opened a moment too early so waits for
 * the hub instead of failing into the extension's reconnect backoff (half a second or more).
 */
export function holdEarlyTraffic(server: Server) {
  let requests: Array<[IncomingMessage, ServerResponse]> = [];
  let upgrades: Array<[IncomingMessage, Duplex, Buffer]> = [];
  // A held socket whose client goes away must not throw for want of an error listener.
  const ignoreError = () => {};
  const holdRequest = (request: IncomingMessage, response: ServerResponse) => {
    requests.push([request, response]);
  };
  const holdUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', ignoreError);
    upgrades.push([request, socket, head]);
  };
  server.on('request', holdRequest);
  server.on('upgrade', holdUpgrade);
  const stopHolding = () => {
    server.off('request', holdRequest);
    server.off('upgrade', holdUpgrade);
    const held = { requests, upgrades };
    requests = [];
    upgrades = [];
    return held;
  };
  return {
    release(handleRequest: RequestHandler, handleUpgrade: UpgradeHandler) {
      const held = stopHolding();
      server.on('request', handleRequest);
      server.on('upgrade', handleUpgrade);
      for (const [request, response] of held.requests) handleRequest(request, response);
      for (const [request, socket, head] of held.upgrades) {
        socket.off('error', ignoreError);
        if (!socket.destroyed) handleUpgrade(request, socket, head);
      }
    },
    /** For a start that failed: closes whatever was held. */
    drop() {
      const held = stopHolding();
      for (const [, response] of held.requests) response.destroy();
      for (const [, socket] of held.upgrades) socket.destroy();
    },
  };
}
