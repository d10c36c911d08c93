import { pageElements } from './page-elements';
import { createSelectorList } from './selector-list';

/**
 * Site chrome: removed wherever it appears. Class and id names are matched as whole tokens, so
 * `.ad` does not hit `.header` or `.download`.
 */
const PAGE_CHROME = createSelectorList([
  'nav',
  '[role=navigation]',
  '[role=banner]',
  '[role=contentinfo]',
  '#header',
  '#footer',
  '.site-header',
  '.site-footer',
  '.nav',
  '.navbar',
  '.navigation',
  '#nav',
  '#navigation',
  '.menu',
  '#menu',
  '.breadcrumb',
  '.breadcrumbs',
  '#breadcrumbs',
  // "On this page" lists of a docs page or a long article: navigation within the page.
  '.toc',
  '#toc',
  '.table-of-contents',
  '.sidebar',
  '#sidebar',
  '.widget',
  '.skip-link',
  '.skip-to-content',
  '.lang-selector',
  '.language-selector',
  '#language-selector',
  '.cookie',
  '.cookies',
  '.cookie-banner',
  '.cookie-consent',
  '.cookie-notice',
  '#cookie',
  '#cookie-banner',
  '#cookie-consent',
  '#cookie-notice',
  '.ad',
  '.ads',
  '.advert',
  '.advertisement',
  '.adsbygoogle',
  '#ad',
  '#ads',
  '.social',
  '.social-links',
  '.social-media',
  '.social-share',
  '#social',
  '.share',
  '.sharing',
  '.share-buttons',
  '#share',
  '.popup',
  '#popup',
  '.modal',
  '#modal',
  '[role=dialog]',
  '[aria-modal=true]',
]);

/**
 * Sectioning elements that are chrome only at page level. Inside the main content an article's
 * `<header>` holds its title and byline, its `<footer>` its tags, and an `<aside>` is a note or a
 * pull quote (the HTML-AAM mapping makes the same distinction for the banner and contentinfo roles).
 */
const SECTION_CHROME = createSelectorList([
  'header',
  'footer',
  'aside',
  '.header',
  '.footer',
  '[role=complementary]',
]);

/**
 * Chrome names that page builders (WordPress widgets, Elementor) also give the blocks of the
 * content itself: chrome in a sidebar, content inside `main` or `article`.
 */
const BLOCK_NAMES = createSelectorList(['.widget']);

const MAIN = createSelectorList(['main', '[role=main]', '#main']);
const ARTICLE = createSelectorList(['article']);
const SEMANTIC_CONTENT = createSelectorList(['article', 'main', '[role=main]']);
const MAIN_ID = createSelectorList(['#main']);

/**
 * The onlyMainContent filter: a selector blocklist in the manner of Firecrawl's, made safer in two
 * ways. An element holding the main content (`main`, `[role=main]`, `#main`; `article` on pages
 * without those) is never removed, whatever its class says. Header, footer and aside count as chrome
 * only outside the content, so an article keeps its own header and notes.
 *
 * `keep` lists elements the caller chose explicitly (includeTags); they stay, their contents are
 * still filtered. Without `sections`, header, footer and aside stay wherever they are: for content
 * already cut out of the page, where a `<header>` may hold the article's own text.
 */
export function removeBoilerplate(
  root: ParentNode,
  keep: ReadonlySet<Element> = new Set(),
  { sections = true }: { sections?: boolean } = {},
): void {
  const elements = pageElements(root);
  const mains = elements.filter(MAIN.matches);
  const anchors = mains.length > 0 ? mains : elements.filter(ARTICLE.matches);
  const containers = contentContainers(elements);
  const holdsMainContent = (element: Element) =>
    keep.has(element) || anchors.some((anchor) => element.contains(anchor));
  const insideContent = (element: Element) =>
    containers.some((container) => container !== element && container.contains(element));

  for (const element of elements.filter(PAGE_CHROME.matches)) {
    if (holdsMainContent(element)) continue;
    // Page builders name content blocks "widget": inside the content they are the content.
    if (BLOCK_NAMES.matches(element) && insideContent(element)) continue;
    element.remove();
  }
  if (!sections) return;
  for (const element of elements.filter(SECTION_CHROME.matches)) {
    // Gone with page chrome it sat in.
    if (!root.contains(element)) continue;
    if (!holdsMainContent(element) && !insideContent(element)) element.remove();
  }
}

/**
 * Elements whose descendants are content. A `#main` counts only when it wraps no semantic
 * container: older themes use `<div id="main">` for content and sidebar together.
 */
function contentContainers(elements: readonly Element[]): Element[] {
  const semantic = elements.filter(SEMANTIC_CONTENT.matches);
  const mainIds = elements
    .filter(MAIN_ID.matches)
    .filter((element) => !semantic.some((container) => element.contains(container)));
  return [...semantic, ...mainIds];
}
