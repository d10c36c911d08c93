import type { ActionOutputs } from '../../shared/protocol/messages';

/**
 * The Document a scrape answers with (api-contract.md §3.5). Only requested formats are present;
 * optional fields are omitted, never null.
 */
export interface ScrapeDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  /** `data:image/png;base64,…` (or jpeg): the screenshot format. */
  screenshot?: string;
  /** What the caller's actions produced; only when actions were given. */
  actions?: ActionOutputs;
  warning?: string;
  metadata: ScrapeMetadata;
}

export interface ScrapeMetadata {
  [name: string]: string | string[] | number | undefined;
  sourceURL: string;
  url: string;
  statusCode: number;
  scrapeId: string;
  creditsUsed: number;
  proxyUsed: 'basic' | 'stealth';
  contentType?: string;
  error?: string;
}
