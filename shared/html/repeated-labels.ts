import { tagIn } from './closest-where';
import { collapseWhitespace } from './collapsed-text-length';
import { listingRun, repeatedEntries } from './repeated-entries';
import { type TextWeight, textWeights } from './text-weights';

/** Longer text is a sentence or a title, which may well repeat on purpose (a quoted line, a chorus). */
const MAX_LABEL_CHARS = 40;
/** Text found in fewer separate places than this may be a heading and its echo, not a template's. */
const MIN_REPEATS = 3;
/** A label on fewer than this share of the page's entries is not the template's. */
const TEMPLATE_SHARE = 0.75;
/** Values repeat by nature in tables, code and definition lists; headings name sections. */
const isKept = tagIn(new Set(['table', 'pre', 'code', 'dl', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']));

/**
 * Removes, inside the main content, short text that the page's template prints again and again: the
 * "Reply · Share · Report" of every post, "Quick view", "Compare", "Sponsored" and "0 reviews" on
 * every item of a grid, "Loading…" placeholders, vote counts, a list's "Read more" links. A page's
 * own words do not repeat verbatim as separate short blocks three times or more; its template's do.
 * Unlike {@link removeRepeatedChrome}, which looks inside one run of alike entries, this looks at
 * the whole content: listings nest their cards in many runs, and a thread's action bars sit
 * between posts as often as in them. Tables, code, definition lists and headings are left alone.
 */
export function removeRepeatedLabels(root: Element): void {
  const weights = textWeights(root);
  // Every short text counts once per place: an element whose parent says the same (the link in a
  // list item) is the same place. Bars of actions differ as wholes ("parent" on some posts only),
  // so their items count on their own.
  const labels = new Map<Element, string>();
  const places = new Map<string, number>();
  const stack: Element[] = [root];
  for (let element = stack.pop(); element !== undefined; element = stack.pop()) {
    for (let child = element.firstElementChild; child !== null; child = child.nextElementSibling) {
      const weight = weights.get(child);
      if (weight === undefined || weight.text === 0 || isKept(child)) continue;
      stack.push(child);
      if (!isLabel(weight)) continue;
      const text = collapseWhitespace(child.textContent);
      if (!/[\p{L}\p{N}]/u.test(text)) continue;
      labels.set(child, text);
      if (labels.get(element) !== text) places.set(text, (places.get(text) ?? 0) + 1);
    }
  }
  // A template prints its labels once per entry (post, item); what repeats in far fewer places than
  // that is the content's own: a poster's name on three posts of a thread.
  if (![...places.values()].some((count) => count >= MIN_REPEATS)) return;
  const entries = Math.max(repeatedEntries(root, weights).entries.length, listingRun(root, weights).items);
  const repeats = Math.max(MIN_REPEATS, Math.ceil(entries * TEMPLATE_SHARE));
  // Outermost first (document order), so a removed bar takes its items with it.
  for (const [element, text] of labels) {
    if ((places.get(text) ?? 0) >= repeats && element.isConnected) element.remove();
  }
}

const isLabel = (weight: TextWeight) => weight.text <= MAX_LABEL_CHARS;
