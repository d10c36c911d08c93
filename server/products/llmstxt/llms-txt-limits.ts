/** Pages of one job scraped at once (each also holds one of the team's concurrency slots). */
export const LLMSTXT_PAGE_CONCURRENCY = 3;
/** A page's time limit. */
export const LLMSTXT_PAGE_TIMEOUT_MS = 60_000;
/** The site map may take this long. */
export const LLMSTXT_MAP_TIMEOUT_MS = 30_000;
/** Pages not started by then are left out (and named in the warnings). */
export const LLMSTXT_JOB_TIMEOUT_MS = 10 * 60_000;
/** Longest one-line description of a page. */
export const MAX_DESCRIPTION_CHARS = 200;
/** Page text a model reads to describe the page. */
export const DESCRIBE_INPUT_CHARS = 4_000;
/** llms-full.txt is stored with the job; a store document holds 16 MB at most. */
export const MAX_FULL_TEXT_CHARS = 8 * 1024 * 1024;
/** How often a running job shows it is alive, and how long without it means its instance died. */
export const LLMSTXT_HEARTBEAT_MS = 10_000;
export const LLMSTXT_STALL_MS = 60_000;
