import { createServer } from 'node:net';
import { loadConfig, type Config } from './platform/config';
import { embeddedStoreHolder } from './platform/store';

/**
 * What would make a start fail after it had built and launched for nothing: the port taken, or the
 * embedded store held by another process (an earlier Tabhive, usually). `npm start` asks before it
 * builds anything (scripts/prepare-start.mjs), and startTabhive before it listens or launches a
 * browser. Each problem is said with what to do about it.
 */

const hostPort = (config: Config) =>
  `${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${config.PORT}`;

/** Why listening on the configured port failed, and what to do. */
export function listenProblem(config: Config, err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return [
      `Tabhive cannot start: port ${config.PORT} on ${config.HOST} is in use (an earlier Tabhive still running?).`,
      `  Stop the process that has it, or start on another port: PORT=${config.PORT + 1} npm start`,
    ].join('\n');
  }
  if (code === 'EACCES') {
    return [
      `Tabhive cannot start: it may not listen on ${hostPort(config)} (ports below 1024 need privileges).`,
      '  Start on another port: PORT=3002 npm start',
    ].join('\n');
  }
  const reason = err instanceof Error ? err.message : String(err);
  return `Tabhive cannot start: listening on ${hostPort(config)} failed: ${reason}`;
}

/**
 * The other process that holds the embedded store in DATA_DIR, said with what to do; undefined
 * when none does.
 */
export async function storeProblem(config: Config): Promise<string | undefined> {
  const { DATA_DIR: dataDir } = config;
  const pid = await embeddedStoreHolder({ mongodbUrl: config.MONGODB_URL, dataDir });
  if (pid === undefined) return undefined;
  return [
    `Tabhive cannot start: its data folder ${dataDir} is in use by process ${pid} (a running Tabhive server, or npm run keys?).`,
    `  Stop process ${pid} (kill ${pid}), or start with another data folder: DATA_DIR=${dataDir}-2 npm start`,
  ].join('\n');
}

/** Whether the port is free, found by listening on it for a moment; undefined when it is. */
async function portProblem(config: Config): Promise<string | undefined> {
  // Port 0 takes any free port: nothing to check.
  if (config.PORT === 0) return undefined;
  const failure = await new Promise<Error | undefined>((resolve) => {
    const probe = createServer();
    probe.once('error', resolve);
    probe.listen({ port: config.PORT, host: config.HOST, exclusive: true }, () =>
      probe.close(() => resolve(undefined)),
    );
  });
  return failure === undefined ? undefined : listenProblem(config, failure);
}

/**
 * Everything that stops a start with these settings, before anything is built or launched: bad
 * settings, a taken port, a held store. Empty when the start may go on.
 */
export async function preStartProblems(env: NodeJS.ProcessEnv): Promise<string[]> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (err) {
    return [err instanceof Error ? err.message : String(err)];
  }
  const problems = await Promise.all([portProblem(config), storeProblem(config)]);
  return problems.filter((problem) => problem !== undefined);
}
