// What a build read, recorded beside its output, so that `npm start` rebuilds only when a source
// changed (scripts/build-if-changed.mjs). A record holds a content hash of every input file, with
// its size and time for a quick look: a file touched but not changed (a checkout, an editor's
// save) costs no build, and a build made some other way is noticed by its output file's time.
/* global URL */
import { createHash } from 'node:crypto';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * `npm run build` (wxt build): the extension into .output/chrome-mv3. WXT bundles the extension's
 * folder, with shared/ and the dependencies (package-lock.json, and patches/ that patch-package
 * applies to them), as wxt.config.ts says; package.json gives the manifest its version.
 */
export const EXTENSION_BUILD = {
  name: 'the extension',
  root: ROOT,
  record: '.output/chrome-mv3-build.json',
  outputs: ['.output/chrome-mv3/manifest.json'],
  folders: ['extension', 'shared', 'patches'],
  files: ['wxt.config.ts', 'package.json', 'package-lock.json'],
};

/**
 * `npm run build:server` (scripts/build-server.mjs): the server into .output/server and the console
 * into .output/console. The server's inputs are the files esbuild reports it bundled (server/,
 * shared/ and the extension's files the server imports), added to these when it builds.
 */
export const SERVER_BUILD = {
  name: 'the server',
  root: ROOT,
  record: '.output/server-build.json',
  outputs: [
    '.output/server/main.mjs',
    '.output/server/browser-node.mjs',
    '.output/server/pre-start-checks.mjs',
    '.output/console/console.js',
  ],
  folders: ['console'],
  files: [
    'scripts/build-server.mjs',
    'scripts/build-inputs.mjs',
    'scripts/check-node-version.cjs',
    'tsconfig.json',
    'package-lock.json',
  ],
};

const toPosix = (file) => file.split(path.sep).join('/');

/** The files under the folders (relative to `root`, sorted), and the named files themselves. */
export async function listInputs(root, { folders = [], files = [] }) {
  const found = new Set(files);
  for (const folder of folders) {
    const entries = await readdir(path.join(root, folder), { recursive: true, withFileTypes: true }).catch(
      () => [],
    );
    for (const entry of entries) {
      if (entry.isFile()) found.add(toPosix(path.relative(root, path.join(entry.parentPath, entry.name))));
    }
  }
  return [...found].sort();
}

const sha256Of = async (file) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

const mtimeOf = (file) =>
  stat(file).then(
    (stats) => stats.mtimeMs,
    () => null,
  );

/** What is known of one file: its content's SHA-256, and its size and time, which spare reading it again. */
async function describe(file) {
  try {
    const { size, mtimeMs } = await stat(file);
    return { sha256: await sha256Of(file), size, mtimeMs };
  } catch {
    return null;
  }
}

/** Each file's description (describe()), null for a file that is missing. */
export async function hashInputs(root, files) {
  const described = await Promise.all(files.map((file) => describe(path.join(root, file))));
  return Object.fromEntries(files.map((file, index) => [file, described[index]]));
}

/**
 * Whether a file is as recorded: the same size and time (a quick look, enough most of the time),
 * or else the same content, so that a file touched but not changed costs no build.
 */
async function unchanged(file, recorded) {
  if (recorded === undefined) return false;
  const stats = await stat(file).catch(() => undefined);
  // Missing then (null) and now, or there then and now.
  if (recorded === null || stats === undefined) return recorded === null && stats === undefined;
  if (stats.size === recorded.size && stats.mtimeMs === recorded.mtimeMs) return true;
  return (await sha256Of(file).catch(() => undefined)) === recorded.sha256;
}

/** The descriptions of a build's folders and files (EXTENSION_BUILD, SERVER_BUILD), and of `more` files. */
export const hashBuildInputs = async (build, more = []) =>
  hashInputs(
    build.root,
    await listInputs(build.root, { folders: build.folders, files: [...build.files, ...more] }),
  );

/**
 * Writes the record of a build: its inputs' hashes as they were when it started, the folders they
 * were listed from (a file added there is a change too), and the modification time of its first
 * output, which every build rewrites.
 */
export async function writeBuildRecord(build, inputs) {
  const [output] = build.outputs;
  const mtimeMs = await mtimeOf(path.join(build.root, output));
  const record = { folders: build.folders, inputs, output: { file: output, mtimeMs } };
  await writeFile(path.join(build.root, build.record), `${JSON.stringify(record, null, 1)}\n`);
}

/**
 * Why a build's output is out of date with its sources, in a few words ("server/main.ts changed"),
 * or undefined when it is up to date.
 */
export async function outdatedBecause(build) {
  const at = (file) => path.join(build.root, file);
  for (const output of build.outputs) if ((await mtimeOf(at(output))) === null) return 'not built yet';
  const record = await readFile(at(build.record), 'utf8').then(JSON.parse, () => undefined);
  if (record === undefined) return 'no record of its last build';
  if ((await mtimeOf(at(record.output.file))) !== record.output.mtimeMs) return 'built another way since';
  const listed = await listInputs(build.root, { folders: record.folders, files: Object.keys(record.inputs) });
  const same = await Promise.all(listed.map((file) => unchanged(at(file), record.inputs[file])));
  const changed = listed.filter((_, index) => !same[index]);
  if (changed.length === 0) return undefined;
  const [first] = changed;
  const what = !(first in record.inputs)
    ? `${first} added`
    : (await mtimeOf(at(first))) === null
      ? `${first} removed`
      : `${first} changed`;
  return changed.length === 1 ? what : `${what} and ${changed.length - 1} more`;
}
