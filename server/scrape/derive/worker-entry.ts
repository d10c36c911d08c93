import { existsSync } from 'node:fs';

/**
 * Where the server's start file (scripts/build-server.mjs) says its bundles are: set only when
 * the server runs built (`npm start`), never under tsx (tests, `npm run keys`).
 */
const BUNDLE_DIR = Symbol.for('tabhive.bundleDir');

/** How a worker thread is started: a module to load, or source to evaluate. */
export interface WorkerEntry {
  entry: string | URL;
  eval: boolean;
}

/**
 * The entry of a worker thread whose code is `sourceUrl` (a TypeScript module) or, when the server
 * runs built, `bundled` beside its bundles. Built, the worker loads plain JavaScript: no tsx
 * loader, no esbuild service process per worker (about 80 MB of memory measured for one), no
 * compiling of its modules at each start. Under tsx, each worker registers tsx's loader itself
 * before loading its module: workers are plain Node threads that know no TypeScript, and
 * `execArgv: []` keeps a parent's loader flags from registering a second one.
 */
export function workerEntry(sourceUrl: string, bundled: string): WorkerEntry {
  const bundleDir = (globalThis as Record<symbol, unknown>)[BUNDLE_DIR];
  if (typeof bundleDir === 'string') {
    const url = new URL(bundled, bundleDir);
    if (existsSync(url)) return { entry: url, eval: false };
  }
  return {
    entry: `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(sourceUrl)}); });`,
    eval: true,
  };
}
