import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The repository's root, from which every path here is written (posix separators). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** One file's import of another source file of the repository, by a relative specifier. */
export interface ImportEdge {
  from: string;
  to: string;
}

const SOURCE = /\.(ts|tsx|mts)$/;
const SKIP = /^(node_modules|\.output|\.wxt)$/;

/** Source files (not tests, not declarations) under `dir`, as repository paths. */
export function sourceFilesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(REPO_ROOT, relative), { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP.test(entry.name)) walk(child);
      } else if (SOURCE.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) found.push(child);
    }
  };
  walk(dir);
  return found.sort();
}

/** The file a relative specifier names: as written, with `.ts`, or a folder's index.ts. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = path.posix
    .normalize(path.posix.join(path.posix.dirname(from), specifier))
    .replace(/\.js$/, '');
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (SOURCE.test(candidate) && existsSync(path.join(REPO_ROOT, candidate))) return candidate;
  }
  return undefined;
}

/**
 * Every relative import among the given files, read with TypeScript's own scan: `import`,
 * `import type`, `export … from` and `import()` all count, nothing in comments or strings does.
 * Specifiers that name no source file are returned apart, so a test can refuse them.
 */
export function importEdges(files: readonly string[]): { edges: ImportEdge[]; unresolved: string[] } {
  const edges: ImportEdge[] = [];
  const unresolved: string[] = [];
  for (const from of files) {
    const source = readFileSync(path.join(REPO_ROOT, from), 'utf8');
    for (const { fileName } of ts.preProcessFile(source, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const specifier = fileName.replace(/\?.*$/, '');
      const to = resolveSpecifier(from, specifier);
      if (to !== undefined) edges.push({ from, to });
      // Assets and scripts (a stylesheet, a .cjs check) are not source files of the graph.
      else if (!/\.(css|cjs|mjs|js|json|svg|png)$/.test(specifier)) unresolved.push(`${from} -> ${fileName}`);
    }
  }
  return { edges, unresolved };
}

/** The strongly connected groups of more than one node (import circles), by Tarjan's algorithm. */
export function circles(edges: ReadonlyArray<{ from: string; to: string }>): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (from === to) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}
