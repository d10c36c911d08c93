// First, so that an old Node stops here with a clear message before any dependency is evaluated.
import '../../../scripts/check-node-version.cjs';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { BrowserClass } from '../../../shared/protocol/messages';
import { findChrome, DEFAULT_EXTENSION_DIR } from '../launcher';
import { createLog, logSettings } from '../../platform/log';
import { startBrowserNode } from './start-browser-node';

const USAGE = `A Tabhive browser node: Chromium browsers with the Tabhive extension on this machine, joined
to a Tabhive server's hub. No API and no store here.

  npm run browser-node -- --server <url> --token <node token> [--browsers <n>] [--class basic|stealth]
                          [--proxy <url>] [--chrome <path>] [--drain-seconds <s>]

  --server         the server's address (or its load balancer's), e.g. https://api.example   TABHIVE_SERVER_URL
  --token          a node token: npm run keys -- node-token create [--team <team>]           TABHIVE_NODE_TOKEN
  --browsers       browsers to launch (default 2)                                            BROWSERS
  --class          basic (default) or stealth (stealth needs --proxy)                        BROWSER_CLASS
  --proxy          upstream proxy for stealth browsers                                       STEALTH_PROXY_URL
  --chrome         the Chromium binary (default: found on this machine)                      CHROME_PATH
  --drain-seconds  on SIGTERM, how long to let running tasks finish (default 30)             DRAIN_SECONDS`;

const NodeSettings = z.object({
  server: z.url({ protocol: /^(https?|wss?)$/, error: '--server must be an http(s) address' }),
  token: z.string().startsWith('tbn_', '--token must be a node token (tbn_…)'),
  browsers: z.coerce.number().int().min(1).max(64).default(2),
  class: BrowserClass.default('basic'),
  proxy: z.url().optional(),
  chrome: z.string().optional(),
  drainSeconds: z.coerce.number().min(0).max(3600).default(30),
});

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      browsers: { type: 'string' },
      class: { type: 'string' },
      proxy: { type: 'string' },
      chrome: { type: 'string' },
      'drain-seconds': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const env = process.env;
  const parsed = NodeSettings.safeParse({
    server: values.server ?? env.TABHIVE_SERVER_URL,
    token: values.token ?? env.TABHIVE_NODE_TOKEN,
    browsers: values.browsers ?? env.BROWSERS,
    class: values.class ?? env.BROWSER_CLASS,
    proxy: values.proxy ?? env.STEALTH_PROXY_URL,
    chrome: values.chrome ?? env.CHROME_PATH,
    drainSeconds: values['drain-seconds'] ?? env.DRAIN_SECONDS,
  });
  if (!parsed.success) {
    console.error(
      `${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n')}\n\n${USAGE}`,
    );
    process.exit(2);
  }
  const settings = parsed.data;
  if (settings.class === 'stealth' && settings.proxy === undefined) {
    console.error('--class stealth needs --proxy (STEALTH_PROXY_URL)');
    process.exit(2);
  }
  if (!existsSync(path.join(DEFAULT_EXTENSION_DIR, 'manifest.json'))) {
    console.error(`The extension is not built (${DEFAULT_EXTENSION_DIR}): run npm run build`);
    process.exit(1);
  }
  // The server's LOG_FORMAT and LOG_LEVEL, read the same way.
  const log = createLog(logSettings(env));
  const node = await startBrowserNode({
    serverUrl: settings.server,
    token: settings.token,
    browsers: settings.browsers,
    chromePath: findChrome(settings.chrome),
    extensionDir: DEFAULT_EXTENSION_DIR,
    browserClass: settings.class,
    proxyServer: settings.proxy,
    log,
  });
  // Whatever happens, no browser outlives the node.
  process.on('exit', () => node.launcher.killNow());

  let stopping = false;
  const stop = async (signal: string, drain: boolean) => {
    if (stopping) return;
    stopping = true;
    log.info('browser node stopping', { signal });
    const forced = setTimeout(() => process.exit(1), (settings.drainSeconds + 15) * 1000);
    forced.unref();
    if (drain) await node.drain(settings.drainSeconds * 1000);
    await node.stop();
    process.exit(0);
  };
  // SIGTERM (a container stopping, systemd) drains; SIGINT stops without, a second signal at once.
  const onSignal = (signal: string, drain: boolean) => {
    if (stopping) process.exit(1);
    void stop(signal, drain);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM', true));
  process.on('SIGINT', () => onSignal('SIGINT', false));
  console.log(`Tabhive browser node: ${settings.browsers} browser(s) joining ${settings.server}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
