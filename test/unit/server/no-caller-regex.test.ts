import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, dir), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(relative);
      return Promise.resolve(/\.(ts|tsx)$/.test(entry.name) ? [relative] : []);
    }),
  );
  return nested.flat();
}

/**
 * Files that build a RegExp from their own constant fragments only; the caller's text is matched
 * against it, never compiled. Each entry says why it is safe.
 */
const BUILT_FROM_CONSTANTS: Record<string, string> = {
  'server/products/crawl-prompt/prompt-option-rules.ts':
    'rule patterns composed of module constants, with no nested unbounded repetition; the prompt is only matched',
  'server/browsers/pairing/pairing-code.ts':
    'a bounded group pattern from the GROUP_LENGTH constant; the typed code is only matched',
  'server/scrape/capture/loading-placeholder.ts':
    "loading phrases from a module constant, and a closing tag for one of the raw-text element names the module's own pattern matched; the page is only matched",
};

describe('regular expressions', () => {
  // Caller patterns (includePaths, excludePaths, …) compile with the linear-time engine (re2js);
  // a backtracking RegExp built at run time could be made to spin forever (docs/security.md#caller-patterns).
  it('are never built at run time in the server, the shared code or the extension', async () => {
    const files = (await Promise.all(['server', 'shared', 'extension'].map(sourceFiles))).flat();
    expect(files.length).toBeGreaterThan(50);
    const offenders: string[] = [];
    for (const file of files) {
      const code = (await readFile(path.join(ROOT, file), 'utf8'))
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      if (/(?<![\w.])RegExp\s*\(/.test(code) && BUILT_FROM_CONSTANTS[file] === undefined)
        offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });
});
