/**
 * The changeTracking format's answer (docs/wire-contract.md §3.7): in the document's type, so it sits below the
 * stage that makes it (enrich/formats/change-tracking-format.ts, git-diff.ts).
 */

/** One line of a chunk, as parse-diff (which Firecrawl uses) describes it. */
export type DiffChange =
  | { type: 'normal'; normal: true; ln1: number; ln2: number; content: string }
  | { type: 'add'; add: true; ln: number; content: string }
  | { type: 'del'; del: true; ln: number; content: string };

export interface DiffChunk {
  content: string;
  changes: DiffChange[];
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

export interface DiffFile {
  from: string;
  to: string;
  chunks: DiffChunk[];
  additions: number;
  deletions: number;
}

export interface GitDiff {
  text: string;
  json: { files: DiffFile[] };
}

export interface ChangeTracking {
  previousScrapeAt: string | null;
  changeStatus: 'new' | 'same' | 'changed' | 'removed';
  visibility: 'visible' | 'hidden';
  diff?: GitDiff;
  json?: unknown;
}
