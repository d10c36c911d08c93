import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { circles } from '../../helpers/import-graph';

const EXTENSION_DIR = path.resolve(import.meta.dirname, '../../../extension');

/**
 * The extension's floors, lowest first, and what each folder holds. A folder imports only from
 * folders on lower floors: never from a higher one, nor from a neighbour on its own floor. So a
 * piece two folders share lives on a floor below both of them, and the listing reads as the layers.
 */
const FLOORS: readonly Readonly<Record<string, string>>[] = [
  {
    page: 'functions that run inside the page: settling, capture, branding, cookie banners',
    assets: 'the stylesheet and icon source the pages import',
  },
  {
    'task-kit': 'what every part of a task shares: its error, its deadline, its settle times, its journal',
    ui: 'what a person sees: popup and options helpers, the badge, the activity log, the messages of the pages',
  },
  {
    debugger: 'the chrome.debugger session and its commands: emulation, screenshots, PDFs, the page watch',
    hub: "the browser's link to its server and its person: settings, pairing, the connection, the pages' requests",
  },
  { network: 'per-task and standing network rules, the URL policy in the browser' },
  {
    actions: 'clicks, typing, scrolling, scripts',
    tabs: 'the warm task tabs, their windows and their traffic',
  },
  {
    sessions: 'what a session task can be asked: page commands, the live view, the CDP relay',
    'browser-state': 'whose cookies and storage a launched browser holds, what touched them, the wipe',
  },
  { tasks: 'running what the hub sends: page tasks, session tasks, the donor terms, the result' },
  {
    entrypoints: 'the WXT entry points: the background worker (the composition root), popup, options, launch',
  },
];

/** Folders that hold no code anyone imports, and why. */
const NOT_CODE: Record<string, string> = {
  public: "shipped as is (WXT's publicDir) and read at run time by URL, never imported",
};

const floorOf = new Map(FLOORS.flatMap((floor, level) => Object.keys(floor).map((f) => [f, level] as const)));

interface Edge {
  from: string;
  to: string;
}

/** Files under extension/, relative to it, with the relative imports each makes (resolved). */
async function extensionImports(): Promise<{ files: string[]; edges: Edge[]; unresolved: string[] }> {
  const entries = await readdir(EXTENSION_DIR, { withFileTypes: true, recursive: true });
  const files = entries
    .filter((entry) => entry.isFile() && /\.m?tsx?$/.test(entry.name))
    .map((entry) => path.relative(EXTENSION_DIR, path.join(entry.parentPath, entry.name)));
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const file of files) {
    const source = await readFile(path.join(EXTENSION_DIR, file), 'utf8');
    // TypeScript's own scan: every import and export-from (`import type` too), none in comments or strings.
    for (const { fileName } of ts.preProcessFile(source, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(path.join(path.dirname(file), fileName.replace(/\?.*$/, '')));
      if (target === undefined) unresolved.push(`${file} -> ${fileName}`);
      else if (!target.startsWith('..')) edges.push({ from: file, to: target });
    }
  }
  return { files, edges, unresolved };
}

/** The file a relative specifier names: as written, with `.ts`, or a folder's index.ts. */
function resolve(specifier: string): string | undefined {
  for (const candidate of [specifier, `${specifier}.ts`, path.join(specifier, 'index.ts')]) {
    const absolute = path.join(EXTENSION_DIR, candidate);
    if (existsSync(absolute) && statSync(absolute).isFile()) return path.normalize(candidate);
  }
  return undefined;
}

const folderOf = (file: string) => file.split(path.sep)[0] ?? file;

describe('the extension’s layers', () => {
  it('gives every folder a floor, and lists only folders that exist', async () => {
    const folders = (await readdir(EXTENSION_DIR, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !floorOf.has(folder) && !(folder in NOT_CODE))).toEqual([]);
    expect([...floorOf.keys(), ...Object.keys(NOT_CODE)].filter((f) => !folders.includes(f))).toEqual([]);
    expect(Math.max(...floorOf.values())).toBe(floorOf.get('entrypoints'));
  });

  it('resolves every relative import (else the graph below would miss edges)', async () => {
    expect((await extensionImports()).unresolved).toEqual([]);
  });

  it('imports only from lower floors', async () => {
    const { edges } = await extensionImports();
    const offenders = edges.flatMap(({ from, to }) => {
      const [fromFolder, toFolder] = [folderOf(from), folderOf(to)];
      if (fromFolder === toFolder) return [];
      const [fromFloor, toFloor] = [floorOf.get(fromFolder), floorOf.get(toFolder)];
      if (fromFloor === undefined || toFloor === undefined)
        return [`${from} -> ${to}: a folder without a floor`];
      if (toFloor < fromFloor) return [];
      return [
        `${from} -> ${to}: ${toFloor === fromFloor ? 'a neighbour on its own floor' : 'a higher floor'}`,
      ];
    });
    expect(offenders).toEqual([]);
  });

  it('has no folders that import each other, in a pair or around a circle', async () => {
    const { edges } = await extensionImports();
    const folderEdges = edges
      .map(({ from, to }) => ({ from: folderOf(from), to: folderOf(to) }))
      .filter(({ from, to }) => from !== to);
    expect(circles(folderEdges)).toEqual([]);
  });

  it('has no files that import each other, in a pair or around a circle', async () => {
    const { edges } = await extensionImports();
    expect(circles(edges)).toEqual([]);
  });
});
