// First, so that an old Node stops here with a clear message before any dependency is evaluated.
import '../scripts/check-node-version.cjs';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from './platform/config';
import { createApiServer } from './api/http-server';
import { createLog } from './platform/log';
import type { RunningTabhive } from './running-tabhive';
import { startTabhive } from './start-tabhive';

/**
 * The one file that listens: reads the environment, starts Tabhive, and stops it on SIGINT/SIGTERM.
 */
async function main() {
  const config = loadConfig(process.env);
  const log = createLog({ format: config.LOG_FORMAT, level: config.LOG_LEVEL });
  const server = createApiServer();

  const starting = startTabhive({ config, server, log });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    const forced = setTimeout(() => process.exit(1), 15_000);
    forced.unref();
    // A signal during the start stops Tabhive once it has started (its browsers are launched first);
    // a start that fails is reported below.
    const tabhive = await starting.catch(() => undefined);
    if (tabhive === undefined) return;
    await tabhive.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  const tabhive = await starting;
  // Whatever happens, no launched browser outlives the server.
  process.on('exit', () => tabhive.killBrowsersNow());

  // A few lines a person starting it needs, in this order; the log above them is for operators.
  console.log(`Tabhive listening on ${tabhive.url}`);
  if (tabhive.generatedApiKey !== undefined) {
    console.log(`Generated an API key for the default team (kept in ${tabhive.apiKeyFile}):`);
    console.log(`  ${tabhive.generatedApiKey}`);
  }
  console.log(`Console: ${tabhive.url}/console`);
  console.log(await readiness(tabhive, config.BROWSERS));
}

/** How long the ready line waits for the launched browsers, which connect a second or so after the start. */
const BROWSERS_CONNECT_MS = 30_000;

/**
 * The last line of a start: how many browsers are connected, once the launched ones are or the
 * wait is over.
 */
async function readiness(tabhive: RunningTabhive, launched: number): Promise<string> {
  const waitUntil = Date.now() + BROWSERS_CONNECT_MS;
  while (tabhive.hub.connectedBrowsers() < launched && Date.now() < waitUntil) await sleep(100);
  const connected = tabhive.hub.connectedBrowsers();
  if (launched === 0) return `Ready: ${connected} browsers connected (BROWSERS=0: none launched here).`;
  if (connected < launched) {
    const waited = BROWSERS_CONNECT_MS / 1000;
    return `Not ready: ${connected} of ${launched} launched browsers connected after ${waited} s; the log above says why.`;
  }
  return `Ready: ${connected} browser${connected === 1 ? '' : 's'} connected.`;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
