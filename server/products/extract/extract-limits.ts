/**
 * The bounds of one extract job. A job scrapes at most MAX_EXTRACT_PAGES pages in all: the
 * request's URLs in their order, each wildcard entry (`https://site/*`) expanded in place to at
 * most MAX_PAGES_PER_WILDCARD pages of the site's map, then the web search's results. What a cap
 * leaves out is named in the job's warning.
 */
export const MAX_PAGES_PER_WILDCARD = 25;
export const MAX_EXTRACT_PAGES = 50;
/** Results of `enableWebSearch` whose pages are added. */
export const EXTRACT_SEARCH_RESULTS = 5;
/** Longest search query made from the prompt (engines ignore the rest anyway). */
export const MAX_SEARCH_QUERY_LENGTH = 400;

/** Pages of one job scraped at once (each also holds one of the team's concurrency slots). */
export const EXTRACT_PAGE_CONCURRENCY = 4;
/** A page's time limit when `scrapeOptions.timeout` does not set one. */
export const EXTRACT_PAGE_TIMEOUT_MS = 60_000;
/** A wildcard's site map may take this long. */
export const WILDCARD_MAP_TIMEOUT_MS = 30_000;
/** The web search may take this long. */
export const EXTRACT_SEARCH_TIMEOUT_MS = 30_000;
/** Pages not started by then are skipped (and named in the warning); the merge runs on the rest. */
export const EXTRACT_JOB_TIMEOUT_MS = 10 * 60_000;

/**
 * A running job writes its `updatedAt` this often. A job whose `updatedAt` is older than
 * EXTRACT_STALL_MS, and that no instance runs, lost its instance (a crash, a kill): a status read
 * then ends it as failed, saying so.
 */
export const EXTRACT_HEARTBEAT_MS = 10_000;
export const EXTRACT_STALL_MS = 60_000;

/** The extracted answer is stored with the job; a store document holds 16 MB at most. */
export const MAX_EXTRACT_OUTPUT_CHARS = 8 * 1024 * 1024;
