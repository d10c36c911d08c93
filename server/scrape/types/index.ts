/** The scrape's shared types: the plan, the context callers declare, the scraper and its document. */
export type { ChangeTracking, DiffChange, DiffChunk, DiffFile, GitDiff } from './change-tracking';
export { BASIC_FORMATS, BROWSER_FORMATS, LLM_FORMATS, READ_FORMATS } from './format-kinds';
export type { ScrapeDocument, ScrapeMetadata } from './scrape-document';
export type { ScrapeAdmission, ScrapeContext, Scraper } from './scraper';
export type { PageChallenge, PageChallengeHandler, TaskChallengeSignals } from './page-challenge';
