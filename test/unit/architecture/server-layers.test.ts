import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, importEdges, sourceFilesUnder, type ImportEdge } from '../../helpers/import-graph';

/**
 * The server's wings, lowest first (docs/architecture.md): a wing may import its own wing and the
 * wings below it, never one above. The composition root (server/*.ts, server/compose/) sits on top
 * and is imported by nothing.
 */
const WINGS = ['platform', 'browsers', 'scrape', 'products', 'api'] as const;
const ROOT_RANK = WINGS.length;

/** A file's wing rank: its place in the floors. */
function rankOf(file: string): number {
  const wing = file.split('/')[1] ?? '';
  const rank = (WINGS as readonly string[]).indexOf(wing);
  return rank < 0 ? ROOT_RANK : rank;
}

/**
 * The folder a server file belongs to: `server/<wing>/<folder>` (the scrape stages are folders of
 * the scrape wing), the wing itself for a file at its top, undefined for the composition root.
 */
export function folderOf(file: string): string | undefined {
  const parts = file.split('/');
  if (parts[0] !== 'server' || rankOf(file) === ROOT_RANK) return undefined;
  return parts.length <= 3 ? parts.slice(0, 2).join('/') : parts.slice(0, 3).join('/');
}

/** Imports that go up a floor, or into the composition root. */
function upwardImports(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter(({ from, to }) => to.startsWith('server/') && from.startsWith('server/'))
    .filter(
      ({ from, to }) => rankOf(to) > rankOf(from) || (rankOf(to) === ROOT_RANK && rankOf(from) < ROOT_RANK),
    )
    .map(({ from, to }) => `${from} -> ${to}`);
}

/**
 * Imports that reach past another folder's face: from outside a folder, only its index.ts (or the
 * index.ts of the wing around it) is imported, so what a folder keeps to itself can change freely.
 */
function pastTheFace(edges: readonly ImportEdge[]): string[] {
  const isFace = (file: string) => path.posix.basename(file) === 'index.ts';
  const inside = (file: string, face: string) => file.startsWith(`${path.posix.dirname(face)}/`);
  return edges
    .filter(({ to }) => folderOf(to) !== undefined)
    .filter(({ from, to }) =>
      // A folder's own files import each other, never their own face (that is how circles start).
      isFace(to) ? inside(from, to) && from !== to : folderOf(from) !== folderOf(to),
    )
    .map(({ from, to }) => `${from} -> ${to}`);
}

/** Circles between folders: two folders that import each other, directly or round a ring. */
function folderCircles(edges: readonly ImportEdge[]): string[][] {
  const between = edges.flatMap(({ from, to }) => {
    const a = folderOf(from);
    const b = folderOf(to);
    return a === undefined || b === undefined || a === b ? [] : [{ from: a, to: b }];
  });
  return circles(between);
}

/**
 * Folders that are programs of their own rather than parts of the server: node runs their entry
 * file, and no other code imports them, so they have no surface to show.
 */
const PROGRAMS: Record<string, string> = {
  'server/api/cli': 'the `npm run keys` and `tabhive` command lines',
  'server/browsers/browser-node': 'the browser node process (`npm run browser-node`)',
};

const { edges, unresolved } = importEdges(sourceFilesUnder('server'));

describe('the server layout', () => {
  it('reads the whole server, and every relative import names a file (else the graph would miss edges)', () => {
    expect(sourceFilesUnder('server').length).toBeGreaterThan(400);
    expect(edges.length).toBeGreaterThan(1500);
    expect(unresolved).toEqual([]);
  });

  it('imports only downward: no wing imports a wing above it or the composition root', () => {
    expect(upwardImports(edges)).toEqual([]);
  });

  it('reaches another folder only through its face (index.ts)', () => {
    expect(pastTheFace(edges)).toEqual([]);
  });

  it('keeps the programs real: each exists and nothing imports it', () => {
    for (const folder of Object.keys(PROGRAMS)) {
      expect(sourceFilesUnder('server').some((file) => file.startsWith(`${folder}/`))).toBe(true);
      expect(
        edges.filter(({ from, to }) => to.startsWith(`${folder}/`) && !from.startsWith(`${folder}/`)),
      ).toEqual([]);
    }
  });

  it('has no folders that import each other', () => {
    expect(folderCircles(edges)).toEqual([]);
  });

  it('has no import circle between files, types included', () => {
    expect(circles(edges)).toEqual([]);
  });

  it('gives each wing and folder a face', () => {
    const folders = new Set([
      ...WINGS.map((wing) => `server/${wing}`),
      ...sourceFilesUnder('server').flatMap((file) => folderOf(file) ?? []),
    ]);
    for (const folder of Object.keys(PROGRAMS)) folders.delete(folder);
    const faces = new Set(sourceFilesUnder('server').filter((file) => file.endsWith('/index.ts')));
    const faceless = [...folders].filter((folder) => !faces.has(`${folder}/index.ts`));
    expect(faceless).toEqual([]);
  });
});

describe('the layout rules', () => {
  const edge = (from: string, to: string): ImportEdge => ({ from, to });

  it('catch an import up a floor, and one into the composition root', () => {
    expect(
      upwardImports([
        edge('server/platform/store/a.ts', 'server/scrape/index.ts'),
        edge('server/products/map/a.ts', 'server/compose-tabhive.ts'),
        edge('server/api/routes/a.ts', 'server/platform/store/index.ts'),
      ]),
    ).toEqual([
      'server/platform/store/a.ts -> server/scrape/index.ts',
      'server/products/map/a.ts -> server/compose-tabhive.ts',
    ]);
  });

  it("catch an import past a folder's face, and allow the face and the folder's own files", () => {
    expect(
      pastTheFace([
        edge('server/products/map/a.ts', 'server/platform/store/stores/job-store.ts'),
        edge('server/products/map/a.ts', 'server/platform/store/index.ts'),
        edge('server/products/map/a.ts', 'server/products/map/b.ts'),
        edge('server/compose-tabhive.ts', 'server/platform/index.ts'),
        edge('server/platform/store/stores/a.ts', 'server/platform/store/index.ts'),
      ]),
    ).toEqual([
      'server/products/map/a.ts -> server/platform/store/stores/job-store.ts',
      'server/platform/store/stores/a.ts -> server/platform/store/index.ts',
    ]);
  });

  it('catch folders that import each other round a ring', () => {
    expect(
      folderCircles([
        edge('server/products/map/a.ts', 'server/products/jobs/index.ts'),
        edge('server/products/jobs/a.ts', 'server/products/search/index.ts'),
        edge('server/products/search/a.ts', 'server/products/map/index.ts'),
      ]),
    ).toEqual([['server/products/jobs', 'server/products/map', 'server/products/search']]);
  });
});
