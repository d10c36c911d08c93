import type { WebhookV2 } from '../../../shared/api/v2/crawl-webhook';
import type { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import type { ExtractTarget } from './resolve-extract-urls';

/**
 * What an extract job runs, stored with the job (`request`): the checked URLs, the caller's
 * extraction settings, and the warnings known when it was accepted.
 */
export interface ExtractSpec {
  version: 'v1' | 'v2';
  targets: ExtractTarget[];
  prompt?: string | undefined;
  /** The caller's JSON Schema as guardSchema compiled it (`$schema` and `$id` dropped). */
  schema?: unknown;
  systemPrompt?: string | undefined;
  enableWebSearch: boolean;
  includeSubdomains: boolean;
  showSources: boolean;
  /** The options every page is scraped with (their formats are replaced by the extraction's). */
  scrapeOptions: ScrapeOptionsV2;
  webhook?: WebhookV2 | undefined;
  warnings: string[];
}

/** What a finished job keeps in `output`. */
export interface ExtractOutput {
  data: unknown;
  sources: Record<string, string[]>;
  warnings: string[];
}
