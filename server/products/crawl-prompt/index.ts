/** Crawl prompts: the crawl options a model reads from a sentence. */
export { PromptNotUnderstoodError, createCrawlPromptReader } from './create-crawl-prompt-reader';
export type { CrawlPromptReader } from './create-crawl-prompt-reader';
export { parseCrawlRequestV2 } from './parse-crawl-request-v2';
