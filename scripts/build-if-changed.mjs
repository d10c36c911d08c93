// Builds the extension and the server when their sources changed since their last build, in a line
// or two, and nothing when they did not: what `npm start` and `npm run browser-node` run before
// starting (scripts/build-inputs.mjs says what each build reads). A build's own output (WXT's file
// table) is shown only when it fails.
/* global process, console */
import { pathToFileURL } from 'node:url';
import { EXTENSION_BUILD, SERVER_BUILD, outdatedBecause } from './build-inputs.mjs';
import { BuildFailedError, buildExtension } from './build-extension.mjs';

export { BuildFailedError };

/** Which builds are out of date, and why: `{ extension, server }`, each a reason or undefined. */
export async function outdatedBuilds() {
  const [extension, server] = await Promise.all([
    outdatedBecause(EXTENSION_BUILD),
    outdatedBecause(SERVER_BUILD),
  ]);
  return { extension, server };
}

async function buildServer() {
  // Loaded only to build: esbuild takes a few hundred milliseconds to load.
  const { buildServerAndConsole } = await import('./build-server.mjs');
  await buildServerAndConsole();
}

/**
 * Builds what `outdated` (outdatedBuilds()) names, both at once, saying so in a line before and a
 * line after; says nothing when nothing is out of date.
 */
export async function buildOutdated(outdated, { print = (line) => process.stdout.write(`${line}\n`) } = {}) {
  const builds = [
    outdated.extension === undefined
      ? undefined
      : [EXTENSION_BUILD, outdated.extension, () => buildExtension({ quiet: true })],
    outdated.server === undefined ? undefined : [SERVER_BUILD, outdated.server, buildServer],
  ].filter((build) => build !== undefined);
  if (builds.length === 0) return;
  const startedAt = Date.now();
  print(`Building ${builds.map(([build, reason]) => `${build.name} (${reason})`).join(' and ')}…`);
  await Promise.all(builds.map(([, , run]) => run()));
  print(`Built in ${((Date.now() - startedAt) / 1000).toFixed(1)} s.`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await buildOutdated(await outdatedBuilds());
  } catch (err) {
    console.error(err instanceof BuildFailedError ? err.message : err);
    process.exit(1);
  }
}
