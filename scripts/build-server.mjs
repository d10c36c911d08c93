// Builds the server into plain JavaScript (`npm run build:server`, run by `npm start` when its
// sources changed and by `npm run bench`), so that a start loads a few bundled files instead of
// compiling hundreds of TypeScript modules through tsx on every start. Tests and `npm run keys`
// keep running the TypeScript sources with tsx.
/* global process, URL */
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { buildConsole } from '../console/build-console.mjs';
import { SERVER_BUILD, hashBuildInputs, hashInputs, writeBuildRecord } from './build-inputs.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Beside the extension (.output/chrome-mv3), and like it ignored by git, the linter and the type check. */
export const SERVER_OUT_DIR = path.join(ROOT, '.output/server');

const toPosix = (file) => file.split(path.sep).join('/');
const relativeSpecifier = (from, to) => {
  const relative = toPosix(path.relative(from, to));
  return relative.startsWith('.') ? relative : `./${relative}`;
};

/**
 * Source files find files of the repository through `new URL(…, import.meta.url)`: the built
 * extension, package.json, the derivation worker (which stays TypeScript, loaded with tsx by the
 * worker thread itself). Bundled, `import.meta.url` would be the bundle's address, so in each
 * source file it becomes that file's own address, computed from the bundle's at run time so that
 * the checkout may move.
 */
function sourceAddresses(outDir) {
  return {
    name: 'source-addresses',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => {
        if (file.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const contents = await readFile(file, 'utf8');
        const own = `new URL(${JSON.stringify(relativeSpecifier(outDir, file))}, import.meta.url).href`;
        return { contents: contents.replace(/\bimport\.meta\.url\b/g, own), loader: 'ts' };
      });
    },
  };
}

/**
 * What is built: each start file (the file node runs) loads the bundle of one source entry. The
 * API is what `npm start` runs; the browser node is what `npm run browser-node`, the
 * `tabhive-browser-node` bin and the image's `browser-node` role run.
 */
const ENTRIES = [
  { start: 'main.mjs', bundle: 'tabhive', source: 'server/main.ts' },
  {
    start: 'browser-node.mjs',
    bundle: 'tabhive-browser-node',
    source: 'server/browsers/browser-node/main.ts',
  },
  // No start file: scripts/prepare-start.mjs imports it to check the port and the store before a start.
  { bundle: 'pre-start-checks', source: 'server/pre-start-checks.ts' },
  // No start file: the derivation pool's worker threads load it (server/scrape/derive/worker-entry.ts).
  { bundle: 'derivation-worker', source: 'server/scrape/derive/derivation-worker.ts' },
];

/**
 * A start file, e.g. the one `npm start` runs. It checks the Node version before anything else is
 * evaluated: in an ES module, imported modules run before the importing module's body, so the
 * bundle, which imports its dependencies, is loaded only afterwards. Node's compile cache then
 * keeps the bundles' compiled code between starts (os.tmpdir()/node-compile-cache;
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off). It says where the bundles are, so that worker
 * threads load their bundled code rather than TypeScript through tsx (worker-entry.ts).
 */
const bootSource = (outDir, bundle) => `// Built by scripts/build-server.mjs; do not edit.
import ${JSON.stringify(relativeSpecifier(outDir, path.join(ROOT, 'scripts/check-node-version.cjs')))};
import module from 'node:module';

module.enableCompileCache?.();
globalThis[Symbol.for('tabhive.bundleDir')] = new URL('./', import.meta.url).href;
await import('./${bundle}.mjs');
`;

/** Writes a file by renaming a complete copy into place, so that a server starting meanwhile reads one version. */
async function replaceFile(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
}

/**
 * Builds the server into `outDir`: the start files (main.mjs, browser-node.mjs) and the bundles
 * they load. Files are replaced one by one, never the folder, since a bench or a server may be
 * starting from it.
 */
export async function buildServer({ outDir = SERVER_OUT_DIR } = {}) {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(ENTRIES.map(({ bundle, source }) => [bundle, path.join(ROOT, source)])),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Code that is imported dynamically (server/compose-tabhive.ts, loaded once the browsers are
    // launched) goes into chunks of its own, with the dependencies it imports. Chunks stay beside
    // the entry: the addresses sourceAddresses() writes are relative to the folder.
    splitting: true,
    chunkNames: '[name]-[hash]',
    // Dependencies load from node_modules as they would under tsx: only Tabhive's own code is bundled.
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: 'linked',
    logLevel: 'warning',
    // The files it read, for the record that spares `npm start` the next build (buildServerAndConsole).
    metafile: true,
    write: false,
    plugins: [sourceAddresses(outDir)],
  });
  await mkdir(outDir, { recursive: true });
  const withStart = ENTRIES.filter(({ start }) => start !== undefined);
  const starts = withStart.map(({ start }) => path.join(outDir, start));
  const files = new Set([...result.outputFiles.map((file) => file.path), ...starts]);
  for (const file of result.outputFiles) await replaceFile(file.path, file.contents);
  for (const { start, bundle } of withStart)
    await replaceFile(path.join(outDir, start), bootSource(outDir, bundle));
  // Chunks of earlier builds (their names carry a content hash).
  for (const name of await readdir(outDir)) {
    const file = path.join(outDir, name);
    if (!files.has(file) && !name.endsWith('.tmp')) await rm(file, { recursive: true, force: true });
  }
  return {
    main: path.join(outDir, 'main.mjs'),
    browserNode: path.join(outDir, 'browser-node.mjs'),
    /** The files of the checkout the bundles were made from (relative, with forward slashes). */
    inputs: Object.keys(result.metafile.inputs).map((file) =>
      toPosix(path.relative(ROOT, path.resolve(ROOT, file))),
    ),
  };
}

/**
 * What `npm run build:server` builds: the server into .output/server and the operator console's
 * browser bundle (/console) into .output/console; then the record of what they read
 * (scripts/build-inputs.mjs), unless a file they read changed while they ran: the next start then
 * builds again.
 */
export async function buildServerAndConsole() {
  const startedAt = Date.now();
  const listedInputs = await hashBuildInputs(SERVER_BUILD);
  const { inputs } = await buildServer();
  await buildConsole();
  const changedMeanwhile = await Promise.all(
    inputs.map((file) =>
      stat(path.join(ROOT, file)).then(
        (stats) => stats.mtimeMs > startedAt,
        () => true,
      ),
    ),
  );
  if (changedMeanwhile.some(Boolean)) return;
  await writeBuildRecord(SERVER_BUILD, { ...listedInputs, ...(await hashInputs(ROOT, inputs)) });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv[2] === undefined) await buildServerAndConsole();
  else {
    // A build of its own elsewhere (tests), with the console as usual; no record: starts do not run it.
    await buildServer({ outDir: path.resolve(process.argv[2]) });
    await buildConsole();
  }
}
