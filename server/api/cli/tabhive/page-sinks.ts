import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { appendFile, mkdir, readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from '../usage-error';
import { PageDocument } from './api-responses';
import { pageFileName, uniqueName } from './page-file-name';
import { withFinalNewline } from './write-output';

/** Where the pages of a crawl or batch go as they complete. */
export interface PageSink {
  /** Keys (pageKey) of the pages the output holds already, from an earlier run: never written again. */
  readonly known: ReadonlySet<string>;
  write(page: PageDocument): Promise<void>;
  close(): Promise<void>;
  /** The file or folder, for the summary; `stdout` otherwise. */
  readonly target: string;
}

/** A page's identity within its job: the page job id, which Tabhive sets on every page. */
export const pageKey = (page: PageDocument): string =>
  page.metadata?.scrapeId ?? page.metadata?.sourceURL ?? JSON.stringify(page);

/** The --out-dir folder's list of pages: one JSON line per Markdown file, in completion order. */
export const OUT_DIR_INDEX = 'index.jsonl';
const IndexLine = z.looseObject({ file: z.string(), url: z.string().optional(), key: z.string() });

/** Writes with backpressure, so a slow disk or a reader that pauses holds the crawl's reading back. */
async function writeTo(stream: NodeJS.WritableStream | WriteStream, text: string) {
  if (!stream.write(text)) await once(stream, 'drain');
}

/** The complete lines of a JSON Lines file; a last line cut short (an interrupted run) is removed from the file. */
async function completeLines(file: string): Promise<string[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const end = bytes.lastIndexOf(0x0a) + 1;
  if (end < bytes.length) await truncate(file, end);
  return bytes
    .subarray(0, end)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

function parsedLines<S extends z.ZodType>(lines: string[], schema: S): z.infer<S>[] {
  const parsed: z.infer<S>[] = [];
  for (const line of lines) {
    try {
      const result = schema.safeParse(JSON.parse(line));
      if (result.success) parsed.push(result.data);
    } catch {
      // A line that is not JSON is no page of ours; it stays and is not counted.
    }
  }
  return parsed;
}

/**
 * Pages as JSON Lines in `file`, one document a line. `resume` keeps the file and its pages (and
 * drops a last line cut short); otherwise the file starts empty.
 */
export async function openJsonlSink(file: string, { resume }: { resume: boolean }): Promise<PageSink> {
  const known = new Set<string>();
  if (resume)
    for (const page of parsedLines(await completeLines(file), PageDocument)) known.add(pageKey(page));
  const stream = createWriteStream(file, { flags: resume ? 'a' : 'w' });
  try {
    await once(stream, 'open');
  } catch (err) {
    throw new UsageError(`cannot write ${file}: ${(err as Error).message}`);
  }
  return {
    known,
    target: file,
    write: (page) => writeTo(stream, `${JSON.stringify(page)}\n`),
    close: () =>
      new Promise<void>((resolve, reject) =>
        stream.end((err?: Error | null) => (err ? reject(err) : resolve())),
      ),
  };
}

/**
 * One Markdown file a page in `dir` (names from pageFileName), and `index.jsonl` beside them saying
 * which file is which page. `resume` keeps the folder's pages; otherwise the index starts empty
 * and files of an earlier run may be overwritten.
 */
export async function openMarkdownDirSink(
  dir: string,
  { resume, startHost }: { resume: boolean; startHost?: string },
): Promise<PageSink> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new UsageError(`cannot create ${dir}: ${(err as Error).message}`);
  }
  const indexFile = path.join(dir, OUT_DIR_INDEX);
  const known = new Set<string>();
  const taken = new Set<string>();
  let host = startHost;
  if (resume) {
    for (const entry of parsedLines(await completeLines(indexFile), IndexLine)) {
      known.add(entry.key);
      taken.add(entry.file.replace(/\.md$/, '').toLowerCase());
      if (host === undefined && entry.url !== undefined) host = URL.parse(entry.url)?.host;
    }
  } else {
    await writeFile(indexFile, '');
  }
  return {
    known,
    target: dir,
    async write(page) {
      const url = page.metadata?.sourceURL ?? page.metadata?.url ?? '';
      host ??= URL.parse(url)?.host;
      const base = uniqueName(pageFileName(url, host), taken);
      taken.add(base.toLowerCase());
      const file = `${base}.md`;
      await writeFile(path.join(dir, file), withFinalNewline(page.markdown ?? ''));
      const title = typeof page.metadata?.title === 'string' ? page.metadata.title : undefined;
      await appendFile(
        indexFile,
        `${JSON.stringify({ file, url, ...(title === undefined ? {} : { title }), key: pageKey(page) })}\n`,
      );
    },
    async close() {},
  };
}

/** Pages as JSON Lines on stdout (no -o or --out-dir): nothing is known, so a resume writes every page. */
export function stdoutSink(): PageSink {
  return {
    known: new Set(),
    target: 'stdout',
    write: (page) => writeTo(process.stdout, `${JSON.stringify(page)}\n`),
    async close() {},
  };
}
