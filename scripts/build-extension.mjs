// Builds the extension into .output/chrome-mv3 with WXT (`npm run build`, and `npm start` when its
// sources changed), then records what the build read (scripts/build-inputs.mjs), so that the next
// `npm start` knows it need not build it again.
/* global process */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EXTENSION_BUILD, ROOT, hashBuildInputs, writeBuildRecord } from './build-inputs.mjs';

/** A build that failed, with what it printed. */
export class BuildFailedError extends Error {
  constructor(what, output) {
    super(`Building ${what} failed${output === '' ? '' : `:\n${output}`}`);
    this.name = 'BuildFailedError';
  }
}

/**
 * `wxt build` with `args`. Quiet, its output (a table of every file) is kept for the error a
 * failure throws; otherwise it is shown as it comes.
 */
export async function buildExtension({ quiet = false, args = [] } = {}) {
  // Read before the build: a source saved while it runs makes the next start build again.
  const inputs = await hashBuildInputs(EXTENSION_BUILD);
  const wxt = spawn(process.execPath, [path.join(ROOT, 'node_modules/wxt/bin/wxt.mjs'), 'build', ...args], {
    cwd: ROOT,
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  let output = '';
  wxt.stdout?.on('data', (chunk) => (output += chunk));
  wxt.stderr?.on('data', (chunk) => (output += chunk));
  const code = await new Promise((resolve, reject) => {
    wxt.once('error', reject);
    wxt.once('close', resolve);
  });
  if (code !== 0) throw new BuildFailedError(EXTENSION_BUILD.name, output);
  // Another mode or target builds something else than what a start launches: no record of that.
  if (args.length === 0) await writeBuildRecord(EXTENSION_BUILD, inputs);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // `npm run build -- <wxt options>` passes them on.
  await buildExtension({ args: process.argv.slice(2) }).catch(() => process.exit(1));
}
