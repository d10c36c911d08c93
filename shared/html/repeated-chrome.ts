import { closestWhere, tagIn } from './closest-where';
import { attributeValue } from './attribute-value';
import { collapsedTextLength, collapseWhitespace } from './collapsed-text-length';
import { repeatedEntries } from './repeated-entries';
import { textWeights } from './text-weights';

/** Text in fewer entries than this is what those entries say, not what the template adds to each. */
const MIN_REPEATS = 3;
/** Longer repeated text is a quoted post or a pasted log, which a reader wants kept. */
const MAX_CHROME_CHARS = 200;
/** Tables, code and definition lists hold values that repeat by nature (types, defaults, keys). */
const isData = tagIn(new Set(['table', 'pre', 'code', 'dl']));
/** What a reader clicks rather than reads: `a, button, [role=button], select, label`. */
const CONTROL_TAGS = new Set(['a', 'button', 'select', 'label']);
const isControl = (element: Element) =>
  CONTROL_TAGS.has(element.localName) || attributeValue(element, 'role') === 'button';
/** An element with this share of its text in controls is a bar of actions. */
const CONTROLS_SHARE = 0.5;
/** A price or a sentence of terms repeated across a listing's items is what each item offers. */
const PRICE = /[$€£¥]\s?\d|\d\s?[$€£¥]/;
const SENTENCE = /^.{40,}[.!?]$/;

/**
 * Removes, inside the main content, what a thread's or a listing's template repeats in its entries:
 * "Share · Improve this answer · Follow", "Reply with quote", a poster's signature, badge lines. It
 * is text found identically in {@link MIN_REPEATS} or more entries of the page's largest run of
 * alike entries ({@link repeatedEntries}), outside tables and code; a repeated price or sentence
 * stays unless it is a link or a button. The entries themselves stay. Measured on the WCXB sample
 * (bench/quality): forums +0.009 on both halves, collections +0.004 to +0.008, other types even.
 */
export function removeRepeatedChrome(root: Element): void {
  const { entries } = repeatedEntries(root, textWeights(root));
  if (entries.length < MIN_REPEATS) return;
  const entriesByText = new Map<string, Set<number>>();
  const candidates = entries.map((entry, index) => {
    const found: [Element, string][] = [];
    for (const element of entry.querySelectorAll('*')) {
      // Measured before the text is read: most elements of an entry hold more than chrome does.
      const length = collapsedTextLength(element, { stopAbove: MAX_CHROME_CHARS });
      if (length === 0 || length > MAX_CHROME_CHARS || closestWhere(element, isData) !== null) continue;
      const text = collapseWhitespace(element.textContent);
      if (!controlsOnly(element, text.length) && (PRICE.test(text) || SENTENCE.test(text))) continue;
      found.push([element, text]);
      const seen = entriesByText.get(text);
      if (seen === undefined) entriesByText.set(text, new Set([index]));
      else seen.add(index);
    }
    return found;
  });
  for (const found of candidates) {
    // Document order: an element goes before its descendants, which then go with it.
    for (const [element, text] of found) {
      if ((entriesByText.get(text)?.size ?? 0) >= MIN_REPEATS && element.isConnected) element.remove();
    }
  }
}

/** Whether the element's text is mostly links and buttons: what a template adds to click on. */
function controlsOnly(element: Element, length: number): boolean {
  if (closestWhere(element, isControl) !== null) return true;
  // The outermost controls inside: the element is in none, so a control's control is inside it too.
  let controls = 0;
  const stack: Element[] = [element];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    for (let child = current.firstElementChild; child !== null; child = child.nextElementSibling) {
      if (isControl(child)) controls += collapsedTextLength(child);
      else stack.push(child);
    }
  }
  return controls >= length * CONTROLS_SHARE;
}
