import type { PageTask } from '../../platform/store';
import type { CrawlSpec } from './job-spec';

/**
 * Warnings for crawl answers that surprise newcomers (Firecrawl's optional `warning` string). Both
 * are worked out from what the job already stores, so the start response and every status read
 * say the same without a field of their own in the store.
 */

/** The error the runner records when the start page runs but fails the crawl's own filters. */
const START_FILTERED = /does not pass the crawl filters/;

/** A last path segment that names a file (`page.html`, `index.php`) rather than a folder. */
const FILE_NAME = /\.[a-z0-9]{1,8}$/i;

/**
 * A crawl that starts at a file-like page (`/docs/page.html`) without `crawlEntireDomain` keeps
 * only URLs whose path begins with that page's path: in effect the page alone, which reads as a
 * broken crawl. Folders (`/docs/`, `/docs`) and the site root get no warning.
 */
export function startPathWarning(crawl: Pick<CrawlSpec, 'startUrl' | 'rules'>): string | undefined {
  if (crawl.rules.crawlEntireDomain) return undefined;
  const start = new URL(crawl.startUrl);
  const lastSegment = start.pathname.slice(start.pathname.lastIndexOf('/') + 1);
  if (!FILE_NAME.test(lastSegment)) return undefined;
  const folder = new URL(start.pathname.slice(0, start.pathname.length - lastSegment.length), start.origin)
    .href;
  const root = `${start.origin}/`;
  const instead =
    folder === root ? `the site root (${root})` : `its folder (${folder}) or the site root (${root})`;
  return (
    `The crawl starts at a page (${start.pathname}), so it only follows URLs whose path begins with ` +
    `${start.pathname}: in effect that page alone. To crawl the pages it links to, set ` +
    `crawlEntireDomain: true, or start at ${instead}.`
  );
}

/** Whether a page task is the crawl's start page (as the runner enqueues it). */
function isStartTask(task: Pick<PageTask, 'depth' | 'url'>, startUrl: string): boolean {
  return task.depth === 0 && (task.url === startUrl || task.url === new URL(startUrl).href);
}

/** The message inside a failed task's stored `error` (JSON `{ code?, error }`, or plain text). */
function reasonOf(stored: string | undefined): string | undefined {
  if (stored === undefined || stored === '') return undefined;
  try {
    const parsed = JSON.parse(stored) as { code?: unknown; error?: unknown };
    const error = typeof parsed.error === 'string' ? parsed.error : undefined;
    const code = typeof parsed.code === 'string' ? parsed.code : undefined;
    if (error === undefined) return code;
    return code === undefined ? error : `${code}: ${error}`;
  } catch {
    return stored;
  }
}

/**
 * A finished crawl that kept no page because its start page failed ("completed", 0 pages) says
 * why: the start URL could not be fetched (with the stored reason), or did not pass the filters.
 * `failed` are the job's failed page tasks.
 */
export function startFailureWarning({
  crawl,
  failed,
  errorsPath,
}: {
  crawl: Pick<CrawlSpec, 'startUrl'>;
  failed: ReadonlyArray<Pick<PageTask, 'depth' | 'url' | 'error'>>;
  /** Where the caller reads the job's errors, e.g. `/v2/crawl/<id>/errors`. */
  errorsPath: string;
}): string | undefined {
  const start = failed.find((task) => isStartTask(task, crawl.startUrl));
  if (start === undefined) return undefined;
  const reason = reasonOf(start.error);
  if (reason !== undefined && START_FILTERED.test(reason)) {
    return `The crawl kept no pages: its start URL ${crawl.startUrl} does not pass the crawl's filters (includePaths, excludePaths, robots.txt). See ${errorsPath}.`;
  }
  return (
    `The crawl found no pages: its start URL ${crawl.startUrl} could not be fetched` +
    `${reason === undefined ? '' : ` (${reason})`}. Check the address and that the site is up; ` +
    `${errorsPath} lists the failure.`
  );
}
