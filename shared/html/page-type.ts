import { attributeValue, classAttribute } from './attribute-value';
import { lastDescendant, pageElements } from './page-elements';

/**
 * What kind of page a document is, in the seven types main-content extraction treats differently
 * (docs/features.md#main-content): reported as `metadata.pageType` and used to pick the extraction
 * profile. The order of the list is the order ties are broken in.
 */
export const PAGE_TYPES = [
  'article',
  'forum',
  'product',
  'collection',
  'listing',
  'documentation',
  'service',
] as const;
export type PageType = (typeof PAGE_TYPES)[number];

/**
 * schema.org types (JSON-LD `@type` or microdata `itemtype`) and what they say the page is. Types
 * that sites put on every page (Organization, WebSite, BreadcrumbList, ImageObject) say nothing.
 */
const SCHEMA_TYPES: ReadonlyArray<readonly [RegExp, PageType]> = [
  [/^(DiscussionForumPosting|QAPage|SocialMediaPosting)$/i, 'forum'],
  [/^(Product|ProductGroup|IndividualProduct|Vehicle|Book|SoftwareApplication)$/i, 'product'],
  [/^(CollectionPage|OfferCatalog)$/i, 'collection'],
  [/^(SearchResultsPage|ItemList)$/i, 'listing'],
  [/^(TechArticle|APIReference)$/i, 'documentation'],
  [
    /^(Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|LiveBlogPosting|OpinionNewsArticle)$/i,
    'article',
  ],
  [/^(Service|LocalBusiness|ProfessionalService|FAQPage|AboutPage|ContactPage|Event|Course)$/i, 'service'],
];

/** URL path shapes (lower-cased path and query) and the type they name. */
const URL_SHAPES: ReadonlyArray<readonly [RegExp, PageType]> = [
  [/\/(forums?|threads?|topics?|t|questions|discussions?|community|comments|board|boards)\//, 'forum'],
  [
    /[?&](q|query|search|s|keyword|keywords)=|\/(search|results|jobs|tags?|archives?|authors?)(\/|$)/,
    'listing',
  ],
  [
    /\/(docs?|documentation|reference|manual|api|guides?|handbook|learn|tutorials?|wiki)(\/|$)/,
    'documentation',
  ],
  [/\/(products?|p|dp|item|items|sku|gp\/product)\/|\.html?$.*\bproduct\b/, 'product'],
  [/\/(collections?|categor(y|ies)|c|shop|catalog|catalogue|department|browse|store)(\/|$)/, 'collection'],
  [/\/(19|20)\d\d\/\d\d?\/|\/(blog|news|articles?|posts?|stories|story)\/[^/]+/, 'article'],
];

/** Path segments that name an offer: services, solutions, pricing, a company's own pages. */
const SERVICE_PATH =
  /\/(services?|solutions?|consulting|what-we-do|capabilities|expertise|industries|pricing|plans|platform|why-us|about(-us)?|contact(-us)?)(\/|$)/;

/** Host names that serve documentation (`docs.example.com`, `developer.example.com`). */
const DOCS_HOST = /^(docs|doc|developer|developers|dev|api|learn|wiki|manual|help|support)\./;

/**
 * The page's type from what it declares (schema.org, Open Graph), its URL's shape and its body's
 * structure (code blocks, prices, posts). Declarations weigh most, but a type that lists many
 * products is a collection, and a thread's page declared an article is a forum when its body holds
 * several authored posts. `document` is the page as served (its head holds the declarations).
 */
export function classifyPageType(document: Document, pageUrl: string): PageType {
  const score = new Map<PageType, number>(PAGE_TYPES.map((type) => [type, 0]));
  const add = (type: PageType, points: number) => score.set(type, (score.get(type) ?? 0) + points);

  const structure = pageStructure(document);
  const declared = structure.schemaTypes;
  for (const [pattern, type] of SCHEMA_TYPES) {
    const count = declared.filter((name) => pattern.test(name)).length;
    if (count > 0) add(type, 3);
    // A page listing many products (each declared) is their collection.
    if (type === 'product' && count >= 3) add('collection', 4);
  }
  const ogType = (document.querySelector('meta[property="og:type" i]')?.getAttribute('content') ?? '')
    .trim()
    .toLowerCase();
  if (ogType === 'article') add('article', 2);
  else if (ogType === 'product' || ogType === 'og:product') add('product', 3);
  else if (ogType === 'product.group') add('collection', 3);

  const { host, path } = urlParts(pageUrl);
  for (const [pattern, type] of URL_SHAPES) if (pattern.test(path)) add(type, 2);
  // Offer pages say what they are in their path, and outweigh an `og:type` of article, which
  // some themes put on every page (18 of the tuning half's 88 service pages were typed articles).
  if (SERVICE_PATH.test(path)) add('service', 3);
  if (DOCS_HOST.test(host)) add('documentation', 2);
  if (/^(forum|forums|community|discuss|discourse|board|boards)\./.test(host)) add('forum', 2);

  const body = document.body as HTMLElement | null;
  if (body !== null) structureSignals(body, structure, add);

  let best: PageType = 'service';
  let bestScore = 1; // Nothing scoring above this: a service or landing page, the catch-all.
  for (const type of PAGE_TYPES) {
    const points = score.get(type) ?? 0;
    if (points > bestScore) {
      best = type;
      bestScore = points;
    }
  }
  return best;
}

/** Body structure: code for docs, prices for shops, authored posts for threads. */
function structureSignals(
  body: HTMLElement,
  { codeBlocks, cards, linkedHeadings, posts, entries }: PageStructure,
  add: (type: PageType, points: number) => void,
): void {
  if (codeBlocks >= 2) add('documentation', codeBlocks >= 5 ? 3 : 2);
  const text = body.textContent ?? '';
  // Counted only as far as the rules below read them: most shop pages pass 8 prices early on.
  const prices = countMatches(text, PRICE, 8);
  const buyButtons = countMatches(text, BUY, 3);
  // Many prices, or a buy button on every card: a grid of products. One of each: a product.
  if (prices >= 8 || buyButtons >= 3 || cards >= 3) add('collection', 2);
  else if (prices >= 1 && buyButtons >= 1) add('product', 2);
  // Titled entries: each a heading that links to its page (results, teasers, job ads).
  if (linkedHeadings >= 6) add('listing', 2);
  // A run of teasers: `<article>` entries that each link their heading and show no price (a
  // blog's or a newsroom's index, a topic page, results). Product grids price their cards, and a
  // thread's posts rarely link a heading each.
  const teasers = entries.length >= TEASER_RUN ? entries.filter(isTeaser).length : 0;
  if (teasers >= TEASER_RUN && teasers >= 0.8 * entries.length) add('listing', TEASER_POINTS);
  if (posts >= 3) add('forum', 2);
}

interface PageStructure {
  /** `@type` values of the page's JSON-LD and the last segment of its microdata itemtypes. */
  schemaTypes: string[];
  /** `<pre>` elements. */
  codeBlocks: number;
  /** A product grid's cards, by the names shop themes give them. */
  cards: number;
  /** Links with an href directly in an h2, h3 or h4. */
  linkedHeadings: number;
  /** Posts, comments and answers, by microdata type, post id or class name. */
  posts: number;
  /** `<article>` elements: a page's entries when there are many. */
  entries: Element[];
}

/**
 * The page's declarations and its body's structure, from one walk over its elements. Selector
 * queries compile and match per call, and the classifier runs on every page before extraction:
 * one pass over the elements is several times cheaper than a query per signal. What a `<template>`
 * holds is left out: it is not part of the page.
 */
function pageStructure(document: Document): PageStructure {
  const found: PageStructure = {
    schemaTypes: [],
    codeBlocks: 0,
    cards: 0,
    linkedHeadings: 0,
    posts: 0,
    entries: [],
  };
  const elements = pageElements(document);
  for (const element of elements) declarations(element, found.schemaTypes);
  const body = document.body as HTMLElement | null;
  const last = body === null ? null : lastDescendant(body);
  if (body === null || last === null) return found;
  // The body's elements follow it in document order, up to its last descendant.
  const start = elements.indexOf(body);
  const end = elements.indexOf(last, start);
  for (const element of elements.slice(start + 1, end + 1))
    countStructure(element.parentElement ?? body, element, found);
  return found;
}

/** The schema.org types `element` declares: a JSON-LD script's `@type` values, or its `itemtype`. */
function declarations(element: Element, names: string[]): void {
  if (
    element.localName === 'script' &&
    attributeValue(element, 'type')?.toLowerCase() === 'application/ld+json'
  ) {
    for (const [, listed = ''] of (element.textContent ?? '').matchAll(
      /"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")/g,
    )) {
      for (const [, name = ''] of listed.matchAll(/"([^"]+)"/g)) names.push(name.replace(/^.*[/#:]/, ''));
    }
  }
  const itemtype = attributeValue(element, 'itemtype');
  if (itemtype === null) return;
  for (const type of itemtype.split(/\s+/)) {
    if (type !== '') names.push(type.replace(/^.*[/#]/, ''));
  }
}

/** Counts `child` (of `parent`, in the body) in the structure it shows. */
function countStructure(parent: Element, child: Element, counts: PageStructure): void {
  const name = child.localName;
  if (name === 'pre') counts.codeBlocks += 1;
  else if (name === 'article') counts.entries.push(child);
  else if (name === 'a' && LINKED_HEADING.has(parent.localName) && child.hasAttribute('href'))
    counts.linkedHeadings += 1;
  const classNames = classAttribute(child);
  // Most class attributes name none of the classes below; splitting every one of them was a
  // sixth of the classifier's time.
  const classes = classNames !== null && CLASS_HINT.test(classNames) ? classNames.split(/\s+/) : [];
  if (
    classes.some((value) => CARD_CLASSES.has(value)) ||
    (name === 'li' && classes.includes('product')) ||
    child.hasAttribute('data-product-id')
  )
    counts.cards += 1;
  if (
    classes.some((value) => POST_CLASSES.has(value)) ||
    child.hasAttribute('data-post-id') ||
    POST_ITEMTYPE.test(attributeValue(child, 'itemtype') ?? '')
  )
    counts.posts += 1;
}

/** How many times `pattern` (global) matches in `text`, counting no further than `limit`. */
function countMatches(text: string, pattern: RegExp, limit: number): number {
  // The pattern is global: exec() goes on from its lastIndex, which is left at 0 for the next use.
  pattern.lastIndex = 0;
  let count = 0;
  while (count < limit && pattern.exec(text) !== null) count += 1;
  pattern.lastIndex = 0;
  return count;
}

const LINKED_HEADING = new Set(['h2', 'h3', 'h4']);
/** Teasers that make a page their listing, and what they weigh: not more than a declared article. */
const TEASER_RUN = 10;
const TEASER_POINTS = 2;
const HEADING_LINK = 'h2 a[href], h3 a[href], h4 a[href], a[href] h2, a[href] h3, a[href] h4';

/** An entry that links its heading and shows no price: a teaser for a page of its own. */
function isTeaser(entry: Element): boolean {
  // search() starts at the text's beginning whatever the shared pattern's lastIndex.
  return entry.querySelector(HEADING_LINK) !== null && (entry.textContent ?? '').search(PRICE) === -1;
}

const CARD_CLASSES = new Set(['product-card', 'product-item', 'product-tile', 'product-grid-item']);
const POST_CLASSES = new Set(['post', 'message', 'reply']);
/** A class attribute that may hold one of {@link CARD_CLASSES}, `product` or {@link POST_CLASSES}. */
const CLASS_HINT = /product|post|message|reply/;
const POST_ITEMTYPE = /comment|discussionforumposting|answer/i;
const BUY = /add to (cart|bag|basket)|buy now|in den warenkorb/gi;

/**
 * A price as shops print it: a currency sign or code next to an amount. The amount is bounded (no
 * price has more than 16 digits and separators): unbounded, the code-after form was tried from
 * every digit of a run of digits to its end, which costs the square of the run's length (a page of
 * 240,000 digits held a worker for minutes).
 */
const PRICE = /(?:[$€£¥₹]\s?\d[\d.,]{0,15}|\d[\d.,]{0,15}\s?(?:€|EUR|USD|GBP|kr|zł))/g;

function urlParts(pageUrl: string): { host: string; path: string } {
  try {
    const url = new URL(pageUrl);
    return { host: url.hostname.toLowerCase(), path: `${url.pathname}${url.search}`.toLowerCase() };
  } catch {
    return { host: '', path: '' };
  }
}

/** Whether `value` names one of the {@link PAGE_TYPES} (metadata values are plain strings). */
export function isPageType(value: unknown): value is PageType {
  return typeof value === 'string' && (PAGE_TYPES as readonly string[]).includes(value);
}
