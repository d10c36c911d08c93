import type { BrandingProfile } from '../../shared/branding/branding-profile';
import type { ActionOutputs } from '../../shared/protocol/messages';
import type { ChangeTracking } from './formats/change-tracking-format';

/**
 * The Document a scrape answers with (api-contract.md §3.5). Only requested formats are present;
 * optional fields are omitted, never null.
 */
export interface ScrapeDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  /** The images format: absolute, de-duplicated image URLs of the page. */
  images?: string[];
  /** The branding format, measured in the live page by the extension. */
  branding?: BrandingProfile;
  /** `data:image/png;base64,…` (or jpeg): the screenshot format. */
  screenshot?: string;
  /** What the caller's actions produced; only when actions were given. */
  actions?: ActionOutputs;
  /** The json format (v1's `extract` format is renamed at the v1 route). */
  json?: unknown;
  summary?: string;
  changeTracking?: ChangeTracking;
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
