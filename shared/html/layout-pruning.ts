import { type LayoutBox, type PageLayout, boxOf } from './layout-annotations';
import { prose, type TextWeight, textWeights } from './text-weights';

/** The main column is the deepest element holding at least this share of the page's prose. */
const MAIN_SHARE = 0.5;
/**
 * Text out of sight is removed up to this length, or when it is all links (a menu parked off-canvas):
 * screen-reader labels and headings are short. Longer prose may be a panel a reader opens (some
 * accordions park closed panels off-screen) or content caught mid-animation.
 */
const OFFSCREEN_MAX_CHARS = 160;
const OFFSCREEN_LINK_SHARE = 0.8;
/** A rail is at most this wide compared with the main column. */
const RAIL_WIDTH_SHARE = 0.6;
/**
 * …and at least this share of its text is links (navigation, related stories, a table of
 * contents). Narrow blocks of prose beside the column (a byline, a figure, a product's buy box)
 * are left to the main-content extraction, which reads them better than geometry does.
 */
const RAIL_LINK_SHARE = 0.3;
/** A sticky bar spans at least this share of the viewport's width… */
const BAR_WIDTH_SHARE = 0.6;
/** …and at most this share of its height. */
const BAR_HEIGHT_SHARE = 0.35;
/** Pixels of overlap between neighbouring boxes that rounding and borders make. */
const EDGE_PX = 4;

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const TABLE_PARTS = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption']);

/**
 * Removes from `body` what the live page's layout shows is not the main content, before the
 * main-content extraction runs (onlyMainContent, browser captures only):
 * - fixed elements: overlays, cookie and newsletter pop-ups, chat widgets, fixed headers;
 * - text placed where no one sees it (screen-reader-only);
 * - sticky headers and footers outside the main column;
 * - side rails, sticky or not: blocks beside the main column, narrow compared with it and mostly links.
 * The main column (the deepest element holding most of the page's prose) and its ancestors are
 * never removed, nor is anything holding the page's headline (a fixed hero, a sticky title bar;
 * a logo in an `<h1>` is the blocklist's to remove). A fixed element that holds most of the prose
 * is thus kept: an app shell that scrolls inside, or a dialog showing the content (an overlay with
 * more prose than its page is the price of that).
 */
export function pruneByLayout(body: HTMLElement, layout: PageLayout): void {
  const weights = textWeights(body);
  const main = mainColumn(body, weights, layout);
  const mainBox = boxOf(layout, main);
  const holdsMain = new Set(lineage(main, body));
  // The column's own headline first: an overlay's `<h1>` ("Your privacy") must not keep it.
  const holdsHeadline = new Set(lineage(main.querySelector('h1') ?? body.querySelector('h1'), body));
  const keeps = (element: Element) => holdsMain.has(element) || holdsHeadline.has(element);

  const doomed: Element[] = [];
  for (const [element, position] of layout.positions) {
    if (keeps(element) || !body.contains(element)) continue;
    if (position === 'fixed' || (position === 'offscreen' && unread(element, weights.get(element))))
      doomed.push(element);
    else if (stickyBar(element, main, layout)) doomed.push(element);
  }
  for (const element of doomed) element.remove();

  if (mainBox === undefined) return;
  // The rails: walked from the top, so that a rail goes whole and the column's own blocks are not visited.
  const railWeights = textWeights(body);
  const stack: Element[] = [body];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    for (const child of Array.from(node.children)) {
      if (child === main) continue;
      if (!keeps(child) && isRail(child, mainBox, layout, railWeights)) child.remove();
      else stack.push(child);
    }
  }
}

/**
 * Off-screen text no reader misses: a screen-reader label, or a menu of links parked off-canvas.
 * A heading is kept: a page whose headline is a picture often names it, and its sections, so.
 */
function unread(element: Element, weight: TextWeight | undefined): boolean {
  if (HEADINGS.has(element.localName)) return false;
  if (weight === undefined) return true;
  return weight.text <= OFFSCREEN_MAX_CHARS || weight.linkText >= weight.text * OFFSCREEN_LINK_SHARE;
}

/** `element` and its ancestors up to `body`, both included; none for null. */
function lineage(element: Element | null, body: Element): Element[] {
  const line: Element[] = [];
  for (let node = element; node !== null; node = node === body ? null : node.parentElement) line.push(node);
  return line;
}

/**
 * The column an article, a thread or a listing is in: the deepest element holding at least
 * {@link MAIN_SHARE} of its page's prose (text outside links; all text on a page of links), or
 * the nearest boxed element around it (one long paragraph can hold half an article; the capture
 * boxes columns, not paragraphs).
 */
export function mainColumn(
  body: Element,
  weights: ReadonlyMap<Element, TextWeight>,
  layout: PageLayout,
): Element {
  const total = weights.get(body) ?? { text: 0, linkText: 0 };
  const measure = prose(total) > 0 ? prose : (weight: TextWeight | undefined) => weight?.text ?? 0;
  const needed = measure(total) * MAIN_SHARE;
  let node = body;
  for (;;) {
    let best: Element | undefined;
    for (let child = node.firstElementChild; child !== null; child = child.nextElementSibling) {
      if (best === undefined || measure(weights.get(child)) > measure(weights.get(best))) best = child;
    }
    if (best === undefined || needed === 0 || measure(weights.get(best)) < needed) break;
    node = best;
  }
  for (let column: Element | null = node; column !== null && column !== body; column = column.parentElement) {
    if (layout.boxes.has(column)) return column;
  }
  return node;
}

/**
 * A sticky bar outside the main column: wide and short, and stuck to the top or the bottom of the
 * viewport when the page was captured (a header, a footer, a cookie strip). A wide sticky row
 * further down is left alone (the header row of a comparison table built of divs), a sticky rail
 * is a rail like any other (a table of contents goes, a product's buy box stays: prose, not
 * links), and a sticky table header is the table's own.
 */
function stickyBar(element: Element, main: Element, layout: PageLayout): boolean {
  if (TABLE_PARTS.has(element.localName) || main.contains(element)) return false;
  const box = boxOf(layout, element);
  if (box === undefined) return false;
  const { viewportWidth, viewportHeight } = layout;
  const top = box.y - layout.scrollY;
  const atTop = top >= -EDGE_PX && top <= viewportHeight * BAR_HEIGHT_SHARE;
  const atBottom = top < viewportHeight && top + box.height >= viewportHeight - EDGE_PX;
  return (
    box.width >= viewportWidth * BAR_WIDTH_SHARE &&
    box.height <= viewportHeight * BAR_HEIGHT_SHARE &&
    (atTop || atBottom)
  );
}

/** A boxed block beside the main column, narrow compared with it, and mostly links. */
function isRail(
  element: Element,
  mainBox: LayoutBox,
  layout: PageLayout,
  weights: ReadonlyMap<Element, TextWeight>,
): boolean {
  const box = layout.boxes.get(element);
  if (box === undefined || box.width === 0 || box.height === 0) return false;
  if (!beside(box, mainBox) || box.width > mainBox.width * RAIL_WIDTH_SHARE) return false;
  const weight = weights.get(element);
  return weight !== undefined && weight.text > 0 && weight.linkText >= weight.text * RAIL_LINK_SHARE;
}

/** Entirely left or right of `column`, and level with it for some of its height: not a header or footer. */
function beside(box: LayoutBox, column: LayoutBox): boolean {
  const left = box.x + box.width <= column.x + EDGE_PX;
  const right = box.x >= column.x + column.width - EDGE_PX;
  const level = box.y < column.y + column.height && box.y + box.height > column.y;
  return (left || right) && level;
}
