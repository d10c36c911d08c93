import { parseHtml } from './parse-html';
import { readArticle } from './read-article';
import { removeBoilerplate } from './remove-boilerplate';
import { measureText, type TextMeasure } from './text-measure';

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
 * Keeps the main content of `document.body` (the onlyMainContent option). Readability is best on
 * articles and the selector blocklist on everything else (forums, product pages, listings, docs;
 * performance.md), so both run and the page decides: see {@link preferArticle}. Elements in `keep`
 * (includeTags matches) were chosen by the caller and only the blocklist, which keeps them, runs.
 */
export function extractMainContent(
  document: Document,
  {
    keep = new Set<Element>(),
    strategy = 'auto',
  }: { keep?: ReadonlySet<Element>; strategy?: MainContentStrategy },
): MainContentChoice {
  const article = keep.size === 0 && strategy !== 'blocklist' ? readArticle(document) : undefined;
  if (strategy === 'readability' && article !== undefined) {
    useArticle(document, article.content);
    return 'readability';
  }
  removeBoilerplate(document.body, keep);
  if (strategy !== 'auto' || article === undefined) return 'blocklist';

  const headline = document.body.querySelector('h1');
  if (!preferArticle(measureText(document.body), measureText(article.content), articleMarkup(document))) {
    return 'blocklist';
  }
  useArticle(document, article.content);
  keepHeadline(document.body, headline);
  // Readability keeps what sits inside the article's text (ad slots, share bars); its classes stay, so the blocklist finds them.
  removeBoilerplate(document.body);
  return 'readability';
}

/**
 * Readability wins when what it left out, compared with the blocklist's result, is mostly links
 * (related stories, tag clouds, navigation the blocklist missed). When it left out prose (the other
 * posts of a thread, a product's specifications, listing entries) or code and tables (docs), the
 * page is not one article and the blocklist's fuller result is the main content. A page that
 * declares itself an article (og:type, schema.org) gets Readability unless code or tables would be
 * lost. The thresholds were set on the Article Extraction Benchmark and the golden pages.
 */
export function preferArticle(blocklist: TextMeasure, article: TextMeasure, markup: ArticleMarkup): boolean {
  if (article.text < MIN_ARTICLE_CHARS) return false;
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
  return droppedProse <= articleProse * (markup === 'element' ? 3 : 1.5);
}

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
