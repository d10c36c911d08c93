import { withJsonKey } from '../../scrape';
import type { ScrapeDocument } from '../../scrape/types';
import type { SearchAnswer } from './create-search-service';

/**
 * A search answer in v1's shape (docs/wire-contract.md §11.5): the web results as an array; scraped ones are
 * the document plus `url`, `title` and `description`, with extraction under `extract` when the v1
 * format asked so. With Markdown requested, results whose page gave none are left out, unless
 * none has any: then all are answered with Firecrawl's warning.
 */
export function v1SearchData(
  answer: SearchAnswer,
  {
    jsonKey,
    scraped,
    wantsMarkdown,
  }: { jsonKey: 'json' | 'extract'; scraped: boolean; wantsMarkdown: boolean },
): { data: unknown[]; warnings: string[] } {
  const web = answer.data.web ?? [];
  const warnings = answer.warnings.filter((warning) => !warning.startsWith('The local index holds'));
  if (!scraped) {
    return { data: web.map(({ url, title, description }) => ({ url, title, description })), warnings };
  }
  const documents: Array<Record<string, unknown>> = web.map(
    ({ position: _position, category: _category, ...item }) =>
      'json' in item ? withJsonKey(item as ScrapeDocument, jsonKey) : item,
  );
  if (!wantsMarkdown) return { data: documents, warnings };
  const withContent = documents.filter((item) => typeof item.markdown === 'string' && item.markdown !== '');
  if (withContent.length > 0) return { data: withContent, warnings };
  return {
    data: documents,
    warnings: documents.length === 0 ? warnings : [...warnings, 'No content found in search results'],
  };
}
