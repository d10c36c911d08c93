import { absolutizeUrls } from '../html/absolutize-urls';
import { cleanDocument } from '../html/clean-html';
import { collapsedTextLength } from '../html/collapsed-text-length';
import type { MainContentStrategy } from '../html/extract-main-content';
import { extractImages } from '../html/extract-images';
import { extractLinks } from '../html/extract-links';
import { extractMetadata } from '../html/extract-metadata';
import { isPageType, type PageType } from '../html/page-type';
import { parseHtml } from '../html/parse-html';
import { documentBaseUrl } from '../html/resolve-url';
import { scriptlessDocument } from '../html/scriptless-document';
import { fencedCodeBlock, toMarkdown } from '../markdown/to-markdown';
import type { PageCapture } from '../protocol/messages';

export type BasicFormat = 'markdown' | 'html' | 'rawHtml' | 'links' | 'images';

export interface DeriveOptions {
  formats: ReadonlySet<BasicFormat>;
  onlyMainContent: boolean;
  includeTags?: readonly string[];
  excludeTags?: readonly string[];
  removeBase64Images: boolean;
  /** Readability, the blocklist, or per page (the default); the quality benchmark compares them. */
  mainContent?: MainContentStrategy;
  /**
   * Also every link of the raw HTML, whatever the formats: a crawl follows them (docs/wire-contract.md §3.5), and
   * reading them here spares the server a second parse of the page on its event loop.
   */
  pageLinks?: boolean;
}

export interface DerivedFormats {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  metadata: Record<string, string | string[]>;
  /** With `pageLinks`: the raw HTML's links, as extractLinks reads them. Not a format. */
  pageLinks?: string[];
}

interface Rendered {
  document: Document;
  markdown: string | undefined;
  links: string[] | undefined;
}

/**
 * Turns what a browser captured into the requested basic formats (docs/wire-contract.md §3.5): markdown,
 * html and links from the rendered DOM after cleaning, rawHtml verbatim, metadata from the raw
 * HTML. Each HTML string is parsed once, and the rendered one again only for the empty-main-content
 * retry. Throws InvalidSelectorError for an unusable includeTags/excludeTags selector.
 */
export function deriveFormats(
  capture: PageCapture,
  options: DeriveOptions,
  /** What the caller had parsed already (derive-fetched-page.ts), so as not to parse it again. */
  parsed?: ParsedCapture,
  /**
   * Sees the raw HTML's document when it is parsed here, before deriving changes it, so that a
   * caller reading more of the page (the server's page-reading formats) need not parse it again.
   */
  readRaw?: (rawDocument: Document) => void,
): DerivedFormats {
  const kind = documentKind(capture.contentType);
  if (kind !== 'html') return deriveFromBody(capture, kind, options);

  const rawDocument = parsed === undefined ? parseHtml(capture.rawHtml) : undefined;
  if (rawDocument !== undefined) readRaw?.(rawDocument);
  const { metadata, images, pageBase, pageLinks } =
    parsed?.raw ?? readRawHtml(rawDocument as Document, capture.url, options);
  const renderedHtml = capture.renderedHtml || capture.rawHtml;
  const firstDocument =
    parsed?.renderedDocument ??
    (renderedHtml === capture.rawHtml && rawDocument !== undefined ? rawDocument : parseHtml(renderedHtml));

  // The type the raw HTML declares picks the main-content profile (shared/html/main-content-profiles.ts).
  const pageType = isPageType(metadata.pageType) ? metadata.pageType : undefined;
  let rendered = render(firstDocument, pageBase, options, options.onlyMainContent, pageType);
  if (options.onlyMainContent && isEmpty(rendered)) {
    // docs/wire-contract.md §3.1: when the main content comes out empty, retry silently with the whole page.
    rendered = render(parseHtml(renderedHtml), pageBase, options, false);
  }
  if (isNearlyEmpty(rendered)) rendered = renderScriptless(capture.rawHtml, pageBase, options) ?? rendered;

  const derived: DerivedFormats = { metadata };
  if (rendered.markdown !== undefined) derived.markdown = rendered.markdown;
  if (options.formats.has('html')) derived.html = rendered.document.body.innerHTML;
  if (options.formats.has('rawHtml')) derived.rawHtml = capture.rawHtml;
  if (rendered.links !== undefined) derived.links = rendered.links;
  if (images !== undefined) derived.images = images;
  if (pageLinks !== undefined) derived.pageLinks = pageLinks;
  return derived;
}

/** A capture its caller has parsed already: the raw HTML's facts and the rendered HTML's tree. */
export interface ParsedCapture {
  raw: RawHtmlFacts;
  /**
   * A document that parsing the capture's renderedHtml would give (its text nodes normalized);
   * deriving changes it.
   */
  renderedDocument: Document;
}

/** What the formats take from the raw HTML rather than the rendered DOM. */
export interface RawHtmlFacts {
  metadata: Record<string, string | string[]>;
  images: string[] | undefined;
  /** The page's base URL: the rendered DOM leaves out what is not displayed, <head> and its <base> included. */
  pageBase: string;
  pageLinks: string[] | undefined;
}

/** Reads the raw HTML's facts; cleaning may then reuse the document (it is not changed here). */
export function readRawHtml(rawDocument: Document, url: string, options: DeriveOptions): RawHtmlFacts {
  const pageBase = documentBaseUrl(rawDocument, url);
  return {
    metadata: extractMetadata(rawDocument, url),
    // Images of the whole page, whatever onlyMainContent keeps.
    images: options.formats.has('images') ? extractImages(rawDocument, pageBase) : undefined,
    pageBase,
    pageLinks: options.pageLinks === true ? extractLinks(rawDocument, url) : undefined,
  };
}

function render(
  document: Document,
  pageBase: string,
  options: DeriveOptions,
  onlyMainContent: boolean,
  pageType?: PageType,
): Rendered {
  const baseUrl = documentBaseUrl(document, pageBase);
  cleanDocument(document, {
    onlyMainContent,
    pageType,
    includeTags: options.includeTags,
    excludeTags: options.excludeTags,
    mainContent: options.mainContent,
  });
  // Links first: once URLs are absolute, a same-page `#anchor` looks like any other link.
  const links = options.formats.has('links') ? extractLinks(document, baseUrl) : undefined;
  absolutizeUrls(document.body, baseUrl);
  const markdown = options.formats.has('markdown') ? toMarkdown(document, options) : undefined;
  return { document, markdown, links };
}

/**
 * A page that shows (next to) nothing, as a page whose scripts did not run shows it, read the way a
 * reader without scripts gets it: from its `<noscript>` content (scriptlessDocument). Undefined
 * when the page has none worth reading.
 */
function renderScriptless(rawHtml: string, pageBase: string, options: DeriveOptions): Rendered | undefined {
  const document = scriptlessDocument(rawHtml);
  if (document === undefined) return undefined;
  const rendered = render(document, pageBase, options, options.onlyMainContent);
  if (!options.onlyMainContent || !isEmpty(rendered)) return rendered;
  return render(scriptlessDocument(rawHtml) as Document, pageBase, options, false);
}

/** Less text than this is a shell's leftovers ("Loading…", a logo's alt text), not a page. */
const NEARLY_EMPTY_CHARS = 80;

function isNearlyEmpty({ document, markdown }: Rendered): boolean {
  // The Markdown, when made, is the cheaper read: longer Markdown than this has text enough.
  if (markdown !== undefined && markdown.length > NEARLY_EMPTY_CHARS * 4) return false;
  return collapsedTextLength(document.body) < NEARLY_EMPTY_CHARS;
}

/** Empty markdown; when markdown was not asked for, a body with no text and no image stands in for it. */
function isEmpty({ document, markdown }: Rendered): boolean {
  if (markdown !== undefined) return markdown === '';
  return (document.body.textContent ?? '').trim() === '' && document.body.querySelector('img') === null;
}

type DocumentKind = 'html' | 'json' | 'text';

function documentKind(contentType: string | undefined): DocumentKind {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return 'json';
  if (mediaType === 'text/plain') return 'text';
  return 'html';
}

/** Documents that are not HTML: the capture's rawHtml is the response body as sent. */
function deriveFromBody(capture: PageCapture, kind: 'json' | 'text', options: DeriveOptions): DerivedFormats {
  const body = capture.rawHtml;
  const derived: DerivedFormats = { metadata: {} };
  if (options.formats.has('markdown')) {
    derived.markdown = kind === 'json' ? fencedCodeBlock(body, 'json') : body.trim();
  }
  if (options.formats.has('html')) derived.html = `<pre>${escapeHtml(body)}</pre>`;
  if (options.formats.has('rawHtml')) derived.rawHtml = body;
  if (options.formats.has('links')) derived.links = [];
  if (options.formats.has('images')) derived.images = [];
  if (options.pageLinks === true) derived.pageLinks = [];
  return derived;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
