import { structuredPatch } from 'diff';
import type { DiffChunk, DiffFile, GitDiff } from '../../types';

export type { DiffChange, DiffChunk, DiffFile, GitDiff } from '../../types';

/** The page's Markdown is the one "file" that changes. */
const FILE = 'page.md';
/** Myers' diff is quadratic in the worst case; a page that changed beyond this is shown as replaced. */
const DIFF_TIMEOUT_MS = 2_000;

/**
 * The change between two versions of a page's Markdown as a git-style unified diff (`text`) and
 * the same hunks as data (`json.files`, parse-diff's shape, docs/wire-contract.md §3.7).
 */
export function gitDiff(previous: string, current: string): GitDiff {
  const patch = structuredPatch(FILE, FILE, previous, current, undefined, undefined, {
    context: 3,
    timeout: DIFF_TIMEOUT_MS,
  }) ?? { hunks: [replaceAll(previous, current)] };
  const file: DiffFile = { from: FILE, to: FILE, chunks: [], additions: 0, deletions: 0 };
  const lines = [`diff --git a/${FILE} b/${FILE}`, `--- a/${FILE}`, `+++ b/${FILE}`];
  for (const hunk of patch.hunks) {
    const header = `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
    lines.push(header, ...hunk.lines);
    const chunk: DiffChunk = { content: header, changes: [], ...pick(hunk) };
    let ln1 = hunk.oldStart;
    let ln2 = hunk.newStart;
    for (const line of hunk.lines) {
      if (line.startsWith('+')) {
        chunk.changes.push({ type: 'add', add: true, ln: ln2++, content: line });
        file.additions += 1;
      } else if (line.startsWith('-')) {
        chunk.changes.push({ type: 'del', del: true, ln: ln1++, content: line });
        file.deletions += 1;
      } else if (line.startsWith(' ')) {
        chunk.changes.push({ type: 'normal', normal: true, ln1: ln1++, ln2: ln2++, content: line });
      }
      // "\ No newline at end of file" belongs to the text only.
    }
    file.chunks.push(chunk);
  }
  return { text: `${lines.join('\n')}\n`, json: { files: file.chunks.length > 0 ? [file] : [] } };
}

type Range = Pick<DiffChunk, 'oldStart' | 'oldLines' | 'newStart' | 'newLines'>;
const pick = ({ oldStart, oldLines, newStart, newLines }: Range): Range => ({
  oldStart,
  oldLines,
  newStart,
  newLines,
});

/** One hunk that deletes every old line and adds every new one. */
function replaceAll(previous: string, current: string): Range & { lines: string[] } {
  const oldLines = previous === '' ? [] : previous.replace(/\n$/, '').split('\n');
  const newLines = current === '' ? [] : current.replace(/\n$/, '').split('\n');
  return {
    oldStart: 1,
    oldLines: oldLines.length,
    newStart: 1,
    newLines: newLines.length,
    lines: [...oldLines.map((line) => `-${line}`), ...newLines.map((line) => `+${line}`)],
  };
}
