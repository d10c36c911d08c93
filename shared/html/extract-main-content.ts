import { collapseWhitespace } from './collapsed-text-length';
import { parseHtml } from './parse-html';
import { contentRoot } from './narrow-to-content';
import { readArticle } from './read-article';
import { removeBoilerplate } from './remove-boilerplate';
import { removeRepeatedChrome } from './repeated-chrome';
import { removeRepeatedLabels } from './repeated-labels';
import { listingRun, repeatedEntries } from './repeated-entries';
import { MAIN_CONTENT_PROFILES } from './main-content-profiles';
import type { PageType } from './page-type';
import type { BlockThresholds } from './block-classes';
import { pruneBlocks } from './prune-blocks';
import { removeRecommendationSections } from './recommendation-sections';
import { measureText, type TextMeasure } from './text-measure';
import { type TextWeight, textWeights } from './text-weights';

/** `auto` decides per page; the others exist for the quality benchmark and for tests. */
export type MainContentStrategy = 'auto' | 'readability' | 'blocklist';
export type MainContentChoice = 'readability' | 'blocklist';

/** Below this much text Readability has found a teaser, a caption or a single forum post. */
const MIN_ARTICLE_CHARS = 250;
/** Readability keeping this much of the blocklist's text counts as agreement. */
const AGREEMENT_SHARE = 0.1;
/** …and so does leaving out less than this: a headline, a byline and some tags, not a page's chrome. */
const AGREEMENT_CHARS = 400;
/** More code or table text than this left out means a docs page or a spec sheet, not an article. */
const MAX_DROPPED_STRUCTURED_CHARS = 40;
/**
 * Readability keeping less prose than this share of the page's repeated entries (posts, items) kept
 * one entry of a thread or a listing: the page is the entries, whatever its markup declares.
 */
const ENTRIES_KEPT_SHARE = 0.5;
/** A listing left out with more text than Readability kept (times this) is the page. */
const LISTING_SHARE = 1;
/** How much more prose than it kept Readability may leave out, by how the page calls itself. */
const DROPPED_PROSE_LIMIT: Record<Exclude<ArticleMarkup, 'declared'>, number> = {
  element: 3,
  none: 1.5,
};

/**
 * Keeps the main content of `document.body` (the onlyMainContent option). Readability is best on
 * articles and the selector blocklist on everything else (forums, product pages, listings, docs;
 * BENCHMARKS.md#measured-facts), so both run and the page decides: see {@link preferArticle}. The blocklist's
 * result is then cut down to where its prose concentrates (contentRoot), which drops the rails and
 * link blocks the blocklist does not know by name, and what a thread's template repeats in every
 * post (removeRepeatedChrome) or a template prints on every entry anywhere in the content
 * (removeRepeatedLabels). Elements in `keep` (includeTags matches) were
 * chosen by the caller and only the blocklist, which keeps them, runs.
 */
export function extractMainContent(
  document: Document,
  {
    keep = new Set<Element>(),
    strategy = 'auto',
    pageType,
  }: {
    keep?: ReadonlySet<Element>;
    strategy?: MainContentStrategy;
    /** The page's type (page-type.ts), which picks the profile; without it, the choice is made per page. */
    pageType?: PageType;
  },
): MainContentChoice {
  if (strategy !== 'auto' || keep.size > 0 || pageType === undefined) return choose(document, keep, strategy);
  const profile = MAIN_CONTENT_PROFILES[pageType];
  const choice = choose(document, keep, profile.choice);
  // Carousels of other products or stories are no page's content, whatever its type.
  removeRecommendationSections(document.body);
  if (profile.blocks !== undefined)
    pruneBlocks(document.body, blockThresholds(document.body, profile.blocks));
  return choice;
}

/** A run of alike items holding more than this share of the content's text makes the page a grid of them. */
const GRID_SHARE = 0.5;

/**
 * The profile's block thresholds with reach `all-but-grids` resolved: only the edges of a page that
 * is mostly one run of alike titled items (a category that declares itself a product), whose
 * link-heavy cards chrome anywhere would take for chrome; everywhere on other pages. A thread's
 * posts are such a run too, which is why forums do not ask for it.
 */
function blockThresholds(body: HTMLElement, thresholds: BlockThresholds): BlockThresholds {
  if (thresholds.reach !== 'all-but-grids') return thresholds;
  const weights = textWeights(body);
  const grid = listingRun(body, weights).text > (weights.get(body)?.text ?? 0) * GRID_SHARE;
  return { ...thresholds, reach: grid ? 'edges' : 'all' };
}

/** Readability's article or the blocklist's result, as {@link extractMainContent} describes. */
function choose(
  document: Document,
  keep: ReadonlySet<Element>,
  strategy: MainContentStrategy | 'narrowed',
): MainContentChoice {
  const article =
    keep.size === 0 && (strategy === 'auto' || strategy === 'readability')
      ? readArticle(document)
      : undefined;
  if (strategy === 'readability' && article !== undefined) {
    useArticle(document, article.content);
    return 'readability';
  }
  const titleHeadline = headlineNamedInTitle(document);
  removeBoilerplate(document.body, keep);
  if (strategy === 'readability' || strategy === 'blocklist') return 'blocklist';
  if (article === undefined) {
    if (keep.size === 0) narrowBody(document, textWeights(document.body));
    if (keep.size === 0) removeRepeatedChrome(document.body);
    if (keep.size === 0) removeRepeatedLabels(document.body);
    return 'blocklist';
  }

  const headline = document.body.querySelector('h1') ?? titleHeadline;
  const weights = textWeights(document.body);
  const entries = entriesAroundArticle(document.body, article.content, weights);
  const markup = articleMarkup(document);
  // Only a page that does not declare itself an article can turn out a listing (preferArticle).
  const listing =
    markup === 'declared'
      ? 0
      : listingRun(document.body, weights).text -
        listingRun(article.content, textWeights(article.content)).text;
  if (!preferArticle(measureText(document.body), measureText(article.content), markup, entries, listing)) {
    narrowBody(document, weights);
    removeRepeatedChrome(document.body);
    removeRepeatedLabels(document.body);
    return 'blocklist';
  }
  useArticle(document, article.content);
  keepHeadline(document.body, headline);
  // Readability keeps what sits inside the article's text (ad slots, share bars); its classes stay,
  // so the blocklist finds them. Sections stay: the article's text may sit in a <header> of its own.
  removeBoilerplate(document.body, new Set(), { sections: false });
  return 'readability';
}

/**
 * Readability wins when what it left out, compared with the blocklist's result, is mostly links
 * (related stories, tag clouds, navigation the blocklist missed). When it left out prose (the other
 * posts of a thread, a product's specifications, listing entries) or code and tables (docs), the
 * page is not one article and the blocklist's fuller result is the main content. A page that
 * declares itself an article (og:type, schema.org) gets Readability unless code or tables would be
 * lost or Readability's article is one of many alike entries (a thread or a listing that calls
 * itself an article). The thresholds were set on the Article Extraction Benchmark, the tuning half
 * of the WCXB sample (bench/quality) and the golden pages.
 */
export function preferArticle(
  blocklist: TextMeasure,
  article: TextMeasure,
  markup: ArticleMarkup,
  /** Prose in the run of alike entries (posts, items) that Readability's article is one of; 0 if none. */
  entries = 0,
  /** Text of the titled items of a listing that the blocklist kept and Readability left out; 0 if none. */
  listing = 0,
): boolean {
  if (article.text < MIN_ARTICLE_CHARS) return false;
  // A thread or a listing: Readability kept one post or one item of many. Declared types do not
  // outweigh this (forums and shops often call every page an article).
  if (article.text - article.linkText < entries * ENTRIES_KEPT_SHARE) return false;
  // Listing items are mostly links (their titles), which the prose comparisons below discount: a
  // page that does not declare itself an article and whose listing outweighs Readability's pick is
  // the listing (search results, a category, a job board, a service's cards).
  if (markup !== 'declared' && listing > article.text * LISTING_SHARE) return false;
  // The blocklist threw away what Readability found (a `main` that holds something else, say).
  if (article.text > blocklist.text) return true;
  // When both agree, the blocklist's result is the better one: it keeps the headline, byline and notes.
  const dropped = blocklist.text - article.text;
  const agree = dropped <= blocklist.text * AGREEMENT_SHARE || dropped < AGREEMENT_CHARS;
  if (agree && markup !== 'declared') return false;
  if (blocklist.structured - article.structured > MAX_DROPPED_STRUCTURED_CHARS) return false;
  const droppedProse = blocklist.text - blocklist.linkText - (article.text - article.linkText);
  const articleProse = article.text - article.linkText;
  // A page that declares itself an article is one; the prose it also holds is comments and teasers.
  if (markup === 'declared') return true;
  return droppedProse <= articleProse * DROPPED_PROSE_LIMIT[markup];
}

/**
 * The prose of the page's largest run of alike entries when Readability's article is one of them
 * (it opens with the same text as one entry): then the page is a thread or a listing and the
 * article one post or item of it. An article followed by its comments is not one of the comments.
 */
function entriesAroundArticle(
  body: HTMLElement,
  article: Element,
  weights: ReadonlyMap<Element, TextWeight>,
): number {
  const opening = collapseWhitespace(article.textContent).slice(0, OPENING_CHARS);
  if (opening.length < OPENING_CHARS) return 0;
  const { entries, prose } = repeatedEntries(body, weights);
  return entries.some((entry) => collapseWhitespace(entry.textContent).includes(opening)) ? prose : 0;
}

/** Enough of the article's opening text to tell which entry it came from. */
const OPENING_CHARS = 80;

/**
 * How the page says it is an article: `declared` by og:type or a schema.org Article type (JSON-LD or
 * microdata), `element` by a single `<article>` (forums and listings use one per entry), or `none`.
 */
export type ArticleMarkup = 'declared' | 'element' | 'none';

function articleMarkup(document: Document): ArticleMarkup {
  const ogType = document.querySelector('meta[property="og:type"]')?.getAttribute('content') ?? '';
  if (/^article$/i.test(ogType.trim())) return 'declared';
  if (document.querySelector('[itemtype*="Article" i], [itemtype*="BlogPosting" i]') !== null)
    return 'declared';
  for (const script of document.querySelectorAll('script[type="application/ld+json"]')) {
    if (/"@type"\s*:\s*"(News|Blog|Tech)?(Article|Posting)"/i.test(script.textContent ?? ''))
      return 'declared';
  }
  return document.body.querySelectorAll('article').length === 1 ? 'element' : 'none';
}

/**
 * The article replaces the body as HTML parsing gives it back: Readability's tree may hold what
 * parsing would have shaped differently (a paragraph it made inside another), and every page's
 * Markdown is made from a parsed tree.
 */
function useArticle(document: Document, content: Element): void {
  document.body.replaceChildren(...Array.from(parseHtml(content.innerHTML).body.childNodes));
}

/**
 * The page's `<h1>` when the document title names it: a headline, even where the blocklist takes
 * its container for chrome (an article's text and title in a `<header>` outside `<article>`).
 */
function headlineNamedInTitle(document: Document): Element | null {
  const headline = document.body.querySelector('h1');
  const text = headline?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  return text !== '' && document.title.includes(text) ? headline : null;
}

/**
 * The blocklist's result cut down to where its prose concentrates ({@link contentRoot}), with the
 * page's headline kept on top when it sat outside.
 */
function narrowBody(document: Document, weights: ReadonlyMap<Element, TextWeight>): void {
  const body = document.body;
  const root = contentRoot(body, weights);
  // Wrappers with nothing beside the content stay: the html format keeps the page's structure.
  if (root === body || weights.get(root)?.text === weights.get(body)?.text) return;
  const headline = body.querySelector('h1');
  body.replaceChildren(root);
  keepHeadline(body, headline);
}

/**
 * Readability leaves out the headline (it reports it as the title); a reader of the Markdown wants
 * it on top, as the blocklist would have kept it. The benchmark's ground truth has no headline, so
 * this costs its precision a little, knowingly.
 */
function keepHeadline(body: HTMLElement, headline: Element | null): void {
  const text = headline?.textContent?.trim() ?? '';
  if (headline === null || text === '') return;
  if (Array.from(body.querySelectorAll('h1')).some((h1) => h1.textContent?.trim() === text)) return;
  const copy = body.ownerDocument.createElement('h1');
  copy.textContent = text;
  body.prepend(copy);
}
