// Bundles the operator console (console/main.ts, Preact) for the browser into .output/console/,
// which server/api/console/ serves under /console. Called by scripts/build-server.mjs and by the
// console's end-to-end test. No JSX: the views call Preact's h(), so the project's TypeScript
// settings need no JSX mode.
/* global URL */
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CONSOLE_OUT_DIR = path.join(ROOT, '.output/console');

export async function buildConsole({ outDir = CONSOLE_OUT_DIR } = {}) {
  await mkdir(outDir, { recursive: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: { console: path.join(ROOT, 'console/main.ts') },
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    minify: true,
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  await copyFile(path.join(ROOT, 'console/console.css'), path.join(outDir, 'console.css'));
  // The session replay's player (console/replay-view.ts) loads its own stylesheet.
  await copyFile(
    path.join(ROOT, 'node_modules/rrweb-player/dist/style.css'),
    path.join(outDir, 'replay-player.css'),
  );
  return outDir;
}
