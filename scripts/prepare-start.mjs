// What `npm start` does between the Node version check and `node .output/server/main.mjs`: first
// the checks that would otherwise fail the start late (a taken port, a data folder another process
// holds: server/pre-start-checks.ts), then the builds whose sources changed (build-if-changed.mjs).
// So a start that cannot work stops at once with what to do, builds nothing and launches nothing,
// and a start with nothing changed builds nothing.
/* global process, console */
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './build-inputs.mjs';
import { BuildFailedError, buildOutdated, outdatedBuilds } from './build-if-changed.mjs';

// As the built server does (build-server.mjs): the checks load the configuration's dependencies.
module.enableCompileCache?.();

/**
 * The checks from the built server when it is up to date (a few tens of milliseconds), or from
 * the sources through tsx when it is about to be rebuilt anyway (most of a second).
 */
async function loadChecks(serverOutdated) {
  if (serverOutdated === undefined)
    return import(pathToFileURL(path.join(ROOT, '.output/server/pre-start-checks.mjs')).href);
  const { tsImport } = await import('tsx/esm/api');
  return tsImport('../server/pre-start-checks.ts', import.meta.url);
}

const outdated = await outdatedBuilds();
const { preStartProblems } = await loadChecks(outdated.server);
const problems = await preStartProblems(process.env);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
try {
  await buildOutdated(outdated);
} catch (err) {
  console.error(err instanceof BuildFailedError ? err.message : err);
  process.exit(1);
}
