import type { BrowserClass } from '../../../shared/protocol/messages';
import { createLocalLauncher, type LocalLauncher } from '../launcher';
import type { Log } from '../../platform/log';
import { createDevtoolsPipe, type DevtoolsPipe } from './devtools-pipe';
import { evaluateInExtensionWorker } from './extension-worker';
import { hubUrlOf } from './hub-url';

export interface BrowserNodeOptions {
  /** The API's address (or its load balancer's); the hub is under it. */
  serverUrl: string;
  /** A node token (`npm run keys -- node-token create`). */
  token: string;
  browsers: number;
  chromePath: string;
  extensionDir: string;
  browserClass?: BrowserClass;
  /** Upstream proxy for stealth browsers. */
  proxyServer?: string | undefined;
  log: Log;
}

export interface BrowserNode {
  launcher: LocalLauncher;
  /**
   * Stops taking tasks and waits up to `timeoutMs` for the browsers to finish what they hold;
   * returns how many tasks were still running (they go back to the queue when the browsers close).
   */
  drain(timeoutMs: number): Promise<{ unfinished: number }>;
  /** Closes the browsers. */
  stop(): Promise<void>;
}

const DRAIN_POLL_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A browser node: Chromium browsers with the extension on this machine, joined to a remote hub
 * with a node token. No API, no store: the hub behind `serverUrl` gives their tasks out. Each
 * browser reconnects by itself (the extension's backoff), to whichever instance the address leads
 * to; a browser that dies is launched again. `drain` talks to each browser's extension over its
 * DevTools pipe, which only this process holds.
 */
export async function startBrowserNode(options: BrowserNodeOptions): Promise<BrowserNode> {
  const hubUrl = hubUrlOf(options.serverUrl);
  const launcher = createLocalLauncher({
    count: options.browsers,
    chromePath: options.chromePath,
    extensionDir: options.extensionDir,
    hubUrl,
    // The node token is the credential of every browser here: the hub answers it with itself.
    tokens: { issueLaunchToken: () => options.token, revokeLaunchToken: () => undefined },
    log: options.log,
    browserClass: options.browserClass ?? 'basic',
    proxyServer: options.proxyServer,
    remoteDebuggingPipe: true,
  });
  await launcher.start();
  options.log.info('browser node started', { hub: hubUrl, browsers: options.browsers });

  const pipes = new Map<number, DevtoolsPipe>();
  const pipeOf = (entry: ReturnType<LocalLauncher['debugPipes']>[number]) => {
    const key = entry.pid ?? -entry.slot - 1;
    let pipe = pipes.get(key);
    if (pipe === undefined) {
      pipe = createDevtoolsPipe(entry);
      pipes.set(key, pipe);
    }
    return pipe;
  };
  /** Asks every running browser's extension; a browser that cannot answer counts as holding nothing. */
  const askAll = (expression: string) =>
    Promise.all(
      launcher
        .debugPipes()
        .map((entry) => evaluateInExtensionWorker<number>(pipeOf(entry), expression).catch(() => 0)),
    );

  return {
    launcher,
    async drain(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      let running = await askAll('globalThis.tabhiveNode?.drain() ?? 0');
      options.log.info('browser node draining', { tasks: running.reduce((a, b) => a + b, 0) });
      while (running.some((count) => count > 0) && Date.now() < deadline) {
        await sleep(Math.min(DRAIN_POLL_MS, deadline - Date.now()));
        running = await askAll('globalThis.tabhiveNode?.runningTasks() ?? 0');
      }
      const unfinished = running.reduce((a, b) => a + b, 0);
      options.log.info('browser node drained', { unfinished });
      return { unfinished };
    },
    async stop() {
      for (const pipe of pipes.values()) pipe.close();
      await launcher.stop();
    },
  };
}
