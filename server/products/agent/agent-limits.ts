/**
 * The bounds of one agent or deep research run. Prices are documented in docs/teams-and-credits.md: the tools
 * cost what their routes cost (a scrape or an interact page as a scrape, a search as a search, a
 * map 1 credit), and each model turn costs MODEL_TURN_CREDITS.
 */

/** Credits one model turn costs (the final answer and its one repair count as one turn). */
export const MODEL_TURN_CREDITS = 1;
/** `maxCredits` when the request gives none. */
export const AGENT_DEFAULT_MAX_CREDITS = 100;

/** Model turns that may call tools, by `effort` (the request's `maxSteps` overrides, within MAX_AGENT_STEPS). */
export const STEPS_BY_EFFORT = { low: 8, medium: 15, high: 25 } as const;

/** How long an agent run may work when the request gives no `timeout`; its final answer comes after. */
export const AGENT_DEFAULT_TIMEOUT_MS = 5 * 60_000;

/** Markdown of one page handed back to the model, in characters; the rest is cut (and the model told). */
export const PAGE_CHARS_FOR_MODEL = 12_000;
/** Search results and map links handed back to the model per call. */
export const MAX_SEARCH_RESULTS = 10;
export const MAX_MAP_LINKS = 100;
/** Tool calls of one model turn that are run; more are refused (a runaway model). */
export const MAX_CALLS_PER_TURN = 8;
/** One tool call's time limit (a scrape, an interact, a search, a map). */
export const TOOL_TIMEOUT_MS = 60_000;

/** Summaries of tool inputs and outputs in the trace are cut here. */
export const TRACE_TEXT_CHARS = 500;

/** Heartbeat and stall detection, as for extract jobs (in-process-jobs.ts). */
export const AGENT_HEARTBEAT_MS = 10_000;
export const AGENT_STALL_MS = 60_000;

/** Runs per page of `GET /v2/agent` (firecrawl-py documents pages of 20). */
export const AGENT_LIST_PAGE = 20;
