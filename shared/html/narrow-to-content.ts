import { prose, type TextWeight, textWeights } from './text-weights';

/** A child holding this share of its parent's prose is where the content is; the rest is chrome. */
const DOMINANT_SHARE = 0.85;
/** …and at least this share of its text, links included. */
const MIN_TEXT_SHARE = 0.5;

/** Elements that wrap parts of a page; below them are the content's own blocks, kept as they are. */
const WRAPPERS = 'div, section, main, article, [role=main]';
/** Where the page says its content is: the walk stops there, with the content's own structure. */
const SEMANTIC_CONTENT = 'main, article, [role=main]';

/**
 * The element the page's prose concentrates in: from the body down, as long as one child holds
 * nearly all of its parent's prose (text outside links), that child. Posts of a thread, items of
 * a listing and the parts of a product page (description, specifications, reviews) are siblings
 * with shares of their own, so the walk stops above them; what it leaves behind is the page's
 * headers, rails and footers that the blocklist did not know by name. The walk goes through wrapping
 * `div`s and sections only, and stops at `main` or `article`.
 */
export function contentRoot(
  body: Element,
  weights: ReadonlyMap<Element, TextWeight> = textWeights(body),
): Element {
  let node = body;
  for (;;) {
    if (node !== body && node.matches(SEMANTIC_CONTENT)) return node;
    const total = prose(weights.get(node));
    let best: Element | undefined;
    for (let child = node.firstElementChild; child !== null; child = child.nextElementSibling) {
      if (best === undefined || prose(weights.get(child)) > prose(weights.get(best))) best = child;
    }
    if (best === undefined || total === 0 || prose(weights.get(best)) < total * DOMINANT_SHARE) return node;
    // Cards wrapped in one link each hold text but no prose: a child with the prose but little of
    // the text is an intro above such a listing, not the content.
    if ((weights.get(best)?.text ?? 0) < (weights.get(node)?.text ?? 0) * MIN_TEXT_SHARE) return node;
    if (!best.matches(WRAPPERS)) return node;
    node = best;
  }
}
