import type { ScrapeDocument } from './types';

export type ScrapeDocumentV1 = Omit<ScrapeDocument, 'json'> & { json?: unknown; extract?: unknown };

/**
 * A document as v1 answers it: the `extract` format puts the extracted object in `data.extract`
 * instead of `data.json` (docs/wire-contract.md §11.1). /v1/scrape and v1 crawl and batch pages share this.
 */
export function withJsonKey(document: ScrapeDocument, jsonKey: 'json' | 'extract'): ScrapeDocumentV1 {
  if (jsonKey === 'json' || document.json === undefined) return document;
  const { json, ...rest } = document;
  return { ...rest, extract: json };
}
