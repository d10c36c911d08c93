/** An accepted llms.txt job, as stored with it (so any instance can answer its status). */
export interface LlmsTxtSpec {
  /** The site's start page, as fetched. */
  url: string;
  maxUrls: number;
  showFullText: boolean;
  /** Whether cached pages may serve (the scrape cache's default freshness); false scrapes afresh. */
  cache: boolean;
}

/** What a completed job answers. */
export interface LlmsTxtOutput {
  llmstxt: string;
  /** Present when the request asked for the full text. */
  llmsfulltxt?: string;
  warnings: string[];
}

/** One page as the files list it. */
export interface LlmsTxtPage {
  url: string;
  title: string;
  /** One line. */
  description: string;
  markdown: string;
}
