import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository's root, from which every path here is written (posix separators). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** One file's imports of other source files of the repository, by relative specifier. */
export interface ImportEdge {
  from: string;
  to: string;
  /** `import type` / `export type`: erased at run time, still a dependency of the design. */
  typeOnly: boolean;
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

// `import … from '…'`, `export … from '…'` (over several lines), `import '…'` and `import('…')`.
const STATIC = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = path.posix
    .normalize(path.posix.join(path.posix.dirname(from), specifier))
    .replace(/\.js$/, '');
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (SOURCE.test(candidate) && existsSync(path.join(REPO_ROOT, candidate))) return candidate;
  }
  return undefined;
}

/** Every relative import between the given files and the files they reach. */
export function importEdges(files: readonly string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const from of files) {
    const code = readFileSync(path.join(REPO_ROOT, from), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const match of code.matchAll(STATIC)) {
      const to = resolveSpecifier(from, match[4] ?? '');
      // `import { type A, type B }` is as erased as `import type`.
      const names = match[3] ?? '';
      const allTypes = /^\{\s*(type\s+\w+(\s+as\s+\w+)?\s*,?\s*)+\}\s+from\s+$/.test(names.trim() + ' ');
      if (to !== undefined) edges.push({ from, to, typeOnly: match[2] !== undefined || allTypes });
    }
    for (const match of code.matchAll(DYNAMIC)) {
      const to = resolveSpecifier(from, match[1] ?? '');
      if (to !== undefined) edges.push({ from, to, typeOnly: false });
    }
  }
  return edges;
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
