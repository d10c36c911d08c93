import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type BuildDescription,
  EXTENSION_BUILD,
  SERVER_BUILD,
  hashBuildInputs,
  outdatedBecause,
  writeBuildRecord,
} from '../../../scripts/build-inputs.mjs';

/** A made-up build in a folder of its own: one folder of sources, one file beside, one output. */
let root: string;
let build: BuildDescription;

const write = async (file: string, contents: string) => {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), contents);
};
/** What a build does: reads the inputs, writes the output, records what it read. */
const buildIt = async () => {
  const inputs = await hashBuildInputs(build);
  await write('out/made.js', `made ${Date.now()}`);
  await writeBuildRecord(build, inputs);
};

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tabhive-build-inputs-'));
  build = {
    ...EXTENSION_BUILD,
    name: 'the test build',
    root,
    record: 'out-build.json',
    outputs: ['out/made.js'],
    folders: ['src'],
    files: ['config.ts'],
  };
  await write('src/a.ts', 'a');
  await write('src/deep/b.ts', 'b');
  await write('config.ts', 'config');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('whether a build is out of date with its sources', () => {
  it('is, before any build, and not after one while nothing changes', async () => {
    expect(await outdatedBecause(build)).toBe('not built yet');
    await write('out/made.js', 'made without a record');
    expect(await outdatedBecause(build)).toBe('no record of its last build');
    await buildIt();
    expect(await outdatedBecause(build)).toBeUndefined();
  });

  it('is not, when a file is only touched (a checkout, a save without change)', async () => {
    await buildIt();
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(root, 'src/deep/b.ts'), later, later);
    expect(await outdatedBecause(build)).toBeUndefined();
  });

  it('is, when a file changes, is added to a folder or is removed, and says which', async () => {
    await buildIt();
    await write('src/deep/b.ts', 'b, changed');
    expect(await outdatedBecause(build)).toBe('src/deep/b.ts changed');
    await write('config.ts', 'config, changed');
    expect(await outdatedBecause(build)).toBe('config.ts changed and 1 more');

    await buildIt();
    await write('src/new.ts', 'new');
    expect(await outdatedBecause(build)).toBe('src/new.ts added');

    await buildIt();
    await rm(path.join(root, 'src/a.ts'));
    expect(await outdatedBecause(build)).toBe('src/a.ts removed');
  });

  it('is, when the output was built another way since (whatever the sources were then)', async () => {
    await buildIt();
    await write('out/made.js', 'made by hand');
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(root, 'out/made.js'), later, later);
    expect(await outdatedBecause(build)).toBe('built another way since');
  });

  it('is, when an output is missing', async () => {
    await buildIt();
    await rm(path.join(root, 'out/made.js'));
    expect(await outdatedBecause(build)).toBe('not built yet');
  });

  it('records what `npm start` needs: the folders each real build reads, and its outputs beside .output', () => {
    expect(EXTENSION_BUILD.folders).toEqual(expect.arrayContaining(['extension', 'shared']));
    expect(EXTENSION_BUILD.files).toEqual(expect.arrayContaining(['wxt.config.ts', 'package-lock.json']));
    expect(SERVER_BUILD.folders).toContain('console');
    expect(SERVER_BUILD.outputs).toContain('.output/server/main.mjs');
    for (const { record } of [EXTENSION_BUILD, SERVER_BUILD]) expect(record).toMatch(/^\.output\/[^/]+$/);
  });
});
