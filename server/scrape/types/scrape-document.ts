import type { PageBlocks } from '../../../shared/api/responses/page-blocks';
import type { BrandingProfile } from '../../../shared/branding/branding-profile';
import type { ActionOutputs } from '../../../shared/protocol/messages';
import type { KnowledgeGraph } from '../../../shared/api/responses/knowledge-graph';
import type { MenuProfile, ProductProfile } from '../../../shared/api/responses/page-profiles';
import type { ChangeTracking } from './change-tracking';

/**
 * The Document a scrape answers with (docs/wire-contract.md §3.5). Only requested formats are present;
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
  /** The attributes format: each selector's attribute values, in document order. */
  attributes?: Array<{ selector: string; attribute: string; values: string[] }>;
  /** The highlights format: the passages that best answer its query, verbatim. */
  highlights?: string;
  /** The question format (and the deprecated query format). */
  answer?: string;
  product?: ProductProfile;
  menu?: MenuProfile;
  /** The knowledgeGraph format: entities of the requested types and their relations. */
  knowledgeGraph?: KnowledgeGraph;
  /** The audio and video formats: the page's first direct media file. */
  audio?: string;
  video?: string;
  /** A PDF's pages, with the PDF parser's `pages: true`. */
  pages?: Array<{ pageNumber: number; markdown: string }>;
  /** A PDF's typed layout blocks per page, with the PDF parser's `blocks: true`. */
  blocks?: PageBlocks[];
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
