import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from './api-client';
import { JobErrors, JobStatusPage } from './api-responses';
import type { JobProgress } from './job-progress';
import { pageKey, type PageSink } from './page-sinks';

export type JobKind = 'crawl' | 'batch';

/** How often the status is read while the job runs. */
export const POLL_INTERVAL_MS = 1_000;

/**
 * Pages re-read before the cursor when the results moved. A page's place in the results is fixed
 * when it completes but it is stored a moment later, so a page may appear behind one that completed
 * after it, shifting the later ones: reading from the cursor then meets a page seen already, and
 * this many pages before it are read again (a full sweep at the end catches anything further back).
 */
export const REREAD_PAGES = 25;

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export interface JobOutcome {
  id: string;
  status: string;
  /** Why the job failed, when the server said. */
  error?: string;
  /** What the server found surprising about the job, when it said. */
  warning?: string;
  completed: number;
  /**
   * Every page of the job: those done, running or waiting, and those that failed. (The status's
   * `total` leaves failed pages out, as Firecrawl's does, so a batch of 3 URLs of which 2 failed
   * would read 1 of 1.)
   */
  total: number;
  creditsUsed: number | undefined;
  /** Pages written by this run. */
  written: number;
  /** Pages the output held already (a resumed run) and were not written again. */
  skipped: number;
  /** Pages that failed (from the job's errors), and URLs robots.txt kept out. */
  failed: { url?: string | undefined; error?: string | undefined }[];
  robotsBlocked: string[];
}

export const statusPath = (kind: JobKind, id: string) =>
  `/v2/${kind === 'crawl' ? 'crawl' : 'batch/scrape'}/${encodeURIComponent(id)}`;

/** The skip a status page's `next` asks for; the URL is read for it, not fetched as it is, since the
 * server may name itself differently from how this client reaches it (a proxy). */
function nextSkip(next: string | undefined): number | undefined {
  if (next === undefined) return undefined;
  const skip = URL.parse(next)?.searchParams.get('skip');
  return skip === null || skip === undefined || !/^\d+$/.test(skip) ? undefined : Number(skip);
}

/**
 * Follows a crawl or batch job until it ends, writing each completed page to `sink` once: reads
 * the status from a cursor, follows `next` pages, and updates `progress` on every poll. Pages the
 * sink holds already (a resumed output) are skipped, so a resume never writes a page twice.
 */
export async function followJob({
  client,
  kind,
  id,
  sink,
  progress,
  pollIntervalMs = POLL_INTERVAL_MS,
}: {
  client: ApiClient;
  kind: JobKind;
  id: string;
  sink: PageSink;
  progress: JobProgress | undefined;
  pollIntervalMs?: number;
}): Promise<JobOutcome> {
  /** Pages of this job seen in its results, whether this run wrote them or the output had them. */
  const seen = new Set<string>();
  let written = 0;
  let skipped = 0;
  let cursor = 0;

  /**
   * Reads the results from `skip` to the last `next` page and writes the new ones. Returns the
   * first page (its status and counts) and whether a page seen already came back, which means
   * pages moved.
   */
  const readFrom = async (skip: number) => {
    let first: JobStatusPage | undefined;
    let repeated = false;
    let from: number | undefined = skip;
    while (from !== undefined) {
      const page: JobStatusPage = await client.get(`${statusPath(kind, id)}?skip=${from}`, JobStatusPage);
      first ??= page;
      for (const document of page.data) {
        const key = pageKey(document);
        if (seen.has(key)) {
          repeated = true;
          continue;
        }
        seen.add(key);
        if (sink.known.has(key)) {
          skipped += 1;
          continue;
        }
        await sink.write(document);
        written += 1;
      }
      cursor = Math.max(cursor, from + page.data.length);
      const next = nextSkip(page.next);
      from = next !== undefined && next > from ? next : undefined;
    }
    // Always set: the loop runs at least once.
    return { status: first as JobStatusPage, repeated };
  };
  /** Reads on from the cursor, and again a little before it when pages moved. */
  const readNew = async () => {
    const before = cursor;
    const read = await readFrom(before);
    return read.repeated ? (await readFrom(Math.max(0, before - REREAD_PAGES))).status : read.status;
  };

  const readErrors = () =>
    client
      .get(`${statusPath(kind, id)}/errors`, JobErrors)
      .catch(() => ({ errors: [], robotsBlocked: [] as string[] }));
  /** Pages failed so far: read at the start and whenever the total went down (a page failed). */
  let failedSoFar = 0;
  let lastTotal = -1;
  const show = async (status: JobStatusPage) => {
    if (lastTotal === -1 || status.total < lastTotal) failedSoFar = (await readErrors()).errors.length;
    lastTotal = status.total;
    progress?.update(status.completed, status.total + failedSoFar, status.status, failedSoFar);
  };

  let { status } = await readFrom(0);
  while (!TERMINAL.has(status.status)) {
    await show(status);
    await sleep(pollIntervalMs);
    status = await readNew();
  }
  // The job has ended: one more read for pages stored since, and a full sweep when fewer pages
  // were seen than the job completed.
  status = await readNew();
  if (seen.size < status.completed) status = (await readFrom(0)).status;
  const errors = await readErrors();
  progress?.update(
    status.completed,
    status.total + errors.errors.length,
    status.status,
    errors.errors.length,
  );
  progress?.stop();

  return {
    id,
    status: status.status,
    ...(status.error === undefined ? {} : { error: status.error }),
    ...(status.warning === undefined ? {} : { warning: status.warning }),
    completed: status.completed,
    total: status.total + errors.errors.length,
    creditsUsed: status.creditsUsed,
    written,
    skipped,
    failed: errors.errors.map((error) => ({ url: error.url, error: error.error })),
    robotsBlocked: errors.robotsBlocked ?? [],
  };
}
