import { classifyPageType } from './page-type';
import { parseHtml } from './parse-html';
import { documentBaseUrl, resolveUrl } from './resolve-url';

export type PageMetadata = Record<string, string | string[]>;

/** Document keys (docs/wire-contract.md §3.5) and the meta name or property each comes from. */
const NAMED_META: ReadonlyArray<readonly [key: string, metaName: string]> = [
  ['ogTitle', 'og:title'],
  ['ogDescription', 'og:description'],
  ['ogUrl', 'og:url'],
  ['ogImage', 'og:image'],
  ['ogAudio', 'og:audio'],
  ['ogDeterminer', 'og:determiner'],
  ['ogLocale', 'og:locale'],
  ['ogSiteName', 'og:site_name'],
  ['ogVideo', 'og:video'],
  ['dcTermsCreated', 'dcterms.created'],
  ['dcDateCreated', 'dc.date.created'],
  ['dcDate', 'dc.date'],
  ['dcTermsType', 'dcterms.type'],
  ['dcType', 'dc.type'],
  ['dcTermsAudience', 'dcterms.audience'],
  ['dcTermsSubject', 'dcterms.subject'],
  ['dcSubject', 'dc.subject'],
  ['dcDescription', 'dc.description'],
  ['dcTermsKeywords', 'dcterms.keywords'],
  ['modifiedTime', 'article:modified_time'],
  ['publishedTime', 'article:published_time'],
  ['articleTag', 'article:tag'],
  ['articleSection', 'article:section'],
];

/** Keys whose name is also the meta name; they follow the repetition rules of verbatim copies. */
const SAME_NAME_META = ['description', 'keywords', 'robots'] as const;

/**
 * Page metadata as Firecrawl reports it: the well-known keys of docs/wire-contract.md §3.5, plus
 * `pageType` (page-type.ts), plus every
 * `<meta>` with a name (or property, or itemprop) and content copied under its own name. Repeated
 * `description` values are joined with ", "; other repeated names become arrays. The camelCase
 * keys take the first value, matched case-insensitively (`DC.date` is `dc.date`).
 *
 * Meta names are page-controlled, so everything is collected in Maps: a meta named `__proto__` or
 * `constructor` ends up as an ordinary own key of the result.
 */
export function extractMetadata(source: string | Document, pageUrl: string): PageMetadata {
  const document = typeof source === 'string' ? parseHtml(source) : source;
  const verbatim = new Map<string, string | string[]>();
  const byLowerName = new Map<string, string[]>();

  for (const meta of document.querySelectorAll('meta[content]')) {
    const content = meta.getAttribute('content');
    if (!content) continue;
    const names = ['name', 'property', 'itemprop'].map((attribute) => meta.getAttribute(attribute) ?? '');
    const name = names.find((candidate) => candidate !== '');
    if (name === undefined) continue;
    addRepeated(verbatim, name, content);
    for (const lowerName of new Set(names.map((candidate) => candidate.toLowerCase()))) {
      if (lowerName === '') continue;
      const values = byLowerName.get(lowerName);
      if (values) values.push(content);
      else byLowerName.set(lowerName, [content]);
    }
  }

  const result = new Map(verbatim);
  const set = (key: string, value: string | string[] | undefined) => {
    if (value !== undefined) result.set(key, value);
  };
  set('title', documentTitle(document));
  set('language', document.documentElement.getAttribute('lang') || undefined);
  set('favicon', faviconUrl(document, pageUrl));
  for (const key of SAME_NAME_META) {
    const repeated = new Map<string, string | string[]>();
    for (const value of byLowerName.get(key) ?? []) addRepeated(repeated, key, value);
    set(key, repeated.get(key));
  }
  for (const [key, metaName] of NAMED_META) set(key, byLowerName.get(metaName)?.[0]);
  result.set('ogLocaleAlternate', byLowerName.get('og:locale:alternate') ?? []);
  // Tabhive's own key (docs/features.md#main-content): what kind of page this is, as the
  // main-content extraction read it. Set last, so a page's own `<meta name="pageType">` cannot stand in.
  result.set('pageType', classifyPageType(document, pageUrl));
  return Object.fromEntries(result);
}

function addRepeated(target: Map<string, string | string[]>, name: string, content: string): void {
  const existing = target.get(name);
  if (existing === undefined) target.set(name, content);
  else if (Array.isArray(existing)) existing.push(content);
  else target.set(name, name === 'description' ? `${existing}, ${content}` : [existing, content]);
}

function documentTitle(document: Document): string | undefined {
  // An inline <svg> may carry its own <title>; only the document's counts.
  const title = Array.from(document.querySelectorAll('title')).find((element) => !element.closest('svg'));
  const text = title?.textContent?.replace(/\s+/g, ' ').trim();
  return text || undefined;
}

function faviconUrl(document: Document, pageUrl: string): string | undefined {
  const icon = Array.from(document.querySelectorAll('link[rel][href]')).find((link) =>
    (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/).includes('icon'),
  );
  const href = icon?.getAttribute('href');
  return href ? resolveUrl(href, documentBaseUrl(document, pageUrl)) : undefined;
}
