// First, so that an old Node stops here with a clear message before any dependency is evaluated.
import '../scripts/check-node-version.cjs';
import { loadConfig } from './platform/config';
import { createApiServer } from './api/http-server';
import { createLog } from './platform/log';
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

  console.log(`Tabhive listening on ${tabhive.url}`);
  if (tabhive.generatedApiKey !== undefined) {
    console.log(`Generated an API key for the default team (kept in ${tabhive.apiKeyFile}):`);
    console.log(`  ${tabhive.generatedApiKey}`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
