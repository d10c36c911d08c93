import { absolutizeUrls } from './absolutize-urls';
import { parseHtml } from './parse-html';
import { extractMainContent, type MainContentStrategy } from './extract-main-content';
import { takeLayoutAnnotations } from './layout-annotations';
import { pruneByLayout } from './layout-pruning';
import type { PageType } from './page-type';
import { collapsedTextLength } from './collapsed-text-length';
import { proseFloor } from './safety-rails';
import { documentBaseUrl } from './resolve-url';
import { pageElements } from './page-elements';
import { createSelectorList } from './selector-list';

export interface CleanOptions {
  onlyMainContent: boolean;
  /** CSS selectors; when any is given, only matching elements are kept. */
  includeTags?: readonly string[];
  /** CSS selectors of elements to remove. */
  excludeTags?: readonly string[];
  /** How onlyMainContent finds the content; `auto` unless a benchmark or test says otherwise. */
  mainContent?: MainContentStrategy;
  /** The page's type (metadata.pageType), which picks the main-content profile. */
  pageType?: PageType;
}

/** A caller-supplied CSS selector that cannot be parsed. The API answers it with a 400. */
export class InvalidSelectorError extends Error {
  readonly selector: string;

  constructor(selector: string, options?: ErrorOptions) {
    super(`Invalid CSS selector: ${selector}`, options);
    this.name = 'InvalidSelectorError';
    this.selector = selector;
  }
}

const NEVER_CONTENT = createSelectorList(['script', 'style', 'noscript', 'meta', 'head', 'link', 'template']);
const IFRAME = createSelectorList(['iframe']);
const COMMENT_NODE = 8;

/**
 * The `html` format: the body of `html` cleaned by {@link cleanDocument}, with `href`, `src` and
 * `srcset` made absolute against `<base href>` or `baseUrl`.
 */
export function cleanHtml(html: string, baseUrl: string, options: CleanOptions): string {
  const document = parseHtml(html);
  // Read <base> before cleaning removes the head it lives in.
  const resolvedBase = documentBaseUrl(document, baseUrl);
  cleanDocument(document, options);
  absolutizeUrls(document.body, resolvedBase);
  return document.body.innerHTML;
}

/**
 * Cleans the body of `document` in place: drops what is never content (scripts, styles, comments,
 * …), renames iframes, keeps only `includeTags` matches, removes `excludeTags` matches, and removes
 * boilerplate when `onlyMainContent` (first what a browser capture's layout facts show is not content,
 * then Readability or the blocklist, per page). URLs are left alone, so links can still be told from
 * same-page anchors. Throws {@link InvalidSelectorError}, before changing anything, if a selector is
 * invalid.
 */
export function cleanDocument(document: Document, options: CleanOptions): void {
  const includeTags = usableSelectors(options.includeTags);
  const excludeTags = usableSelectors(options.excludeTags);
  validateSelectors([...includeTags, ...excludeTags]);
  // A browser's layout facts (extension/page/capture-page.ts) come off whatever the options: no
  // format may show them.
  const layout = takeLayoutAnnotations(document);

  const body = document.body;
  const elements = pageElements(body);
  for (const element of elements.filter(NEVER_CONTENT.matches)) element.remove();
  removeComments(body);
  // Frames inside what was just removed (a <noscript>) went with it.
  renameIframes(
    document,
    elements.filter((element) => IFRAME.matches(element) && body.contains(element)),
  );

  const kept = new Set<Element>();
  if (includeTags.length > 0) {
    for (const element of outermost(body.querySelectorAll(includeTags.join(', ')))) kept.add(element);
    body.replaceChildren(...kept);
  }
  if (excludeTags.length > 0) {
    for (const element of body.querySelectorAll(excludeTags.join(', '))) element.remove();
  }
  if (options.onlyMainContent) {
    // includeTags matches were chosen by the caller, whatever their place on the page.
    if (layout !== undefined && kept.size === 0)
      keepUnlessEmptied(document, () => pruneByLayout(body, layout));
    const extract = (strategy: MainContentStrategy | undefined) => () =>
      extractMainContent(document, { keep: kept, strategy, pageType: options.pageType });
    // Below the floor, the blocklist alone (which drops only what it knows by name) is the next
    // answer before the page as it was: a wrong pick by Readability or the profile should cost
    // the page its chrome, not its content.
    const fallback =
      options.mainContent === 'auto' || options.mainContent === undefined ? 'blocklist' : undefined;
    keepUnlessEmptied(document, extract(options.mainContent), proseFloor, fallback && extract(fallback));
  }
}

/**
 * Runs a cleaning step, and puts the body back as it was before the step when the step emptied a
 * page that had text, or left less text than `floor` of the body before it (half its largest prose
 * block, proseFloor): no step may lose a page's content whole (issue 35; a page can still come out
 * short, never empty). With `fallback`, that step is tried on the restored body first, under the
 * same rule.
 */
function keepUnlessEmptied(
  document: Document,
  step: () => unknown,
  floor: (before: Element) => number = () => 1,
  fallback?: () => unknown,
): void {
  const before = collapsedTextLength(document.body);
  if (before === 0) {
    step();
    return;
  }
  const snapshot = document.body.cloneNode(true) as HTMLElement;
  // The floor is a share of one block of the body, at most half its text: a step that kept half is
  // above it whatever it is, and most steps do, so the floor is measured (on the untouched
  // snapshot) only when a step kept less.
  let required: number | undefined;
  const kept = () => {
    const after = collapsedTextLength(document.body);
    if (after >= before * MAX_FLOOR_SHARE) return true;
    required ??= Math.min(floor(snapshot), before);
    return after >= required;
  };
  step();
  if (kept()) return;
  if (fallback !== undefined) {
    document.body.replaceChildren(...Array.from(snapshot.cloneNode(true).childNodes));
    fallback();
    if (kept()) return;
  }
  document.body.replaceChildren(...Array.from(snapshot.childNodes));
}

/** No floor asks for more than this share of the body's text (proseFloor's is half its largest block). */
const MAX_FLOOR_SHARE = 0.5;

/**
 * Throws {@link InvalidSelectorError} for the first selector the DOM cannot parse. Lets the API
 * reject a request before a browser is spent on it.
 */
export function validateSelectors(selectors: readonly string[]): void {
  // css-select compiles a selector before matching, so an empty document is enough to parse it.
  const document = parseHtml('');
  for (const selector of selectors) {
    try {
      document.querySelector(selector);
    } catch (error) {
      throw new InvalidSelectorError(selector, { cause: error });
    }
  }
}

/** Blank selectors are ignored, as Firecrawl does. */
function usableSelectors(selectors: readonly string[] | undefined): string[] {
  return (selectors ?? []).map((selector) => selector.trim()).filter((selector) => selector !== '');
}

/** Matches (in document order) that are not inside an earlier match, so nothing is kept twice. */
function outermost(matches: Iterable<Element>): Element[] {
  const result: Element[] = [];
  for (const element of matches) {
    const last = result.at(-1);
    if (last === undefined || !last.contains(element)) result.push(element);
  }
  return result;
}

/**
 * Every `<iframe>` becomes `<div data-original-tag="iframe">`, the element the API rewrites `iframe`
 * in includeTags/excludeTags to (docs/wire-contract.md §3.1, shared/api/rewrite-iframe-selector.ts). A
 * browser that inlines frame content sends such divs already; the frames left are empty here.
 */
function renameIframes(document: Document, iframes: readonly Element[]): void {
  for (const iframe of iframes) {
    const div = document.createElement('div');
    for (const { name, value } of Array.from(iframe.attributes)) div.setAttribute(name, value);
    div.setAttribute('data-original-tag', 'iframe');
    iframe.replaceWith(div);
  }
}

function removeComments(root: Node): void {
  const stack: Node[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    // Sibling links rather than childNodes, which linkedom builds as a new list on every read.
    for (let child = node.firstChild, next: ChildNode | null; child !== null; child = next) {
      next = child.nextSibling;
      if (child.nodeType === COMMENT_NODE) child.remove();
      else if (child.hasChildNodes()) stack.push(child);
    }
  }
}
