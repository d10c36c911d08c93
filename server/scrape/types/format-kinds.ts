/**
 * Which part of the scrape makes each format: the plan sorts a request's formats with these, the
 * fast path admits only formats it can make without a browser, and the stages make their own.
 */

/** Made from the page's HTML by the derivation worker (shared/formats/derive-formats.ts). */
export const BASIC_FORMATS = new Set<string>(['markdown', 'html', 'rawHtml', 'links', 'images']);

/** Made by the browser while it has the page (enrich/browser-outputs.ts). */
export const BROWSER_FORMATS = new Set<string>(['screenshot', 'branding']);

/**
 * Formats that need the page's text (enrich/formats/llm-formats.ts): json, summary, changeTracking,
 * highlights, question and query; product, menu and knowledgeGraph too, which ask a model for what
 * the page does not publish as structured data.
 */
export const LLM_FORMATS = new Set<string>([
  'json',
  'summary',
  'changeTracking',
  'highlights',
  'question',
  'query',
  'product',
  'menu',
  'knowledgeGraph',
]);

/** Read from the page's HTML in the derivation worker, no text or model (enrich/formats/read-formats.ts). */
export const READ_FORMATS = new Set<string>(['attributes', 'audio', 'video']);
