import { classAttribute } from './attribute-value';
import { prose, type TextWeight } from './text-weights';

/** Fewer siblings alike than this are a pair of columns or a header and its body, not entries. */
const MIN_ENTRIES = 3;
/** An entry with less prose than this is a link, a thumbnail or a tag, not a post or an item. */
const MIN_ENTRY_CHARS = 60;

/**
 * The largest run of alike siblings under `root`: the posts of a thread, the comments under an
 * article, the items of a listing or a product grid. Siblings are alike when they share tag and
 * classes (class names that differ only in digits, such as `post-123`, count as one). Returns the
 * entries and the characters of prose (text outside links) they hold; none when there is no run.
 */
export function repeatedEntries(
  root: Element,
  weights: ReadonlyMap<Element, TextWeight>,
): { entries: Element[]; prose: number } {
  let best = { entries: [] as Element[], prose: 0 };
  const isEntry = (element: Element) => prose(weights.get(element)) >= MIN_ENTRY_CHARS;
  for (const group of alikeSiblings(root, isEntry)) {
    if (group.length < MIN_ENTRIES) continue;
    const total = group.reduce((sum, entry) => sum + prose(weights.get(entry)), 0);
    if (total > best.prose) best = { entries: group, prose: total };
  }
  return best;
}

/**
 * Every group of alike siblings under `root` among the elements that pass `include` (the walk goes
 * down only through those).
 */
function* alikeSiblings(root: Element, include: (element: Element) => boolean): Generator<Element[]> {
  const stack: Element[] = [root];
  for (let element = stack.pop(); element !== undefined; element = stack.pop()) {
    const groups = new Map<string, Element[]>();
    for (let child = element.firstElementChild; child !== null; child = child.nextElementSibling) {
      if (!include(child)) continue;
      stack.push(child);
      const key = signature(child);
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [child]);
      else group.push(child);
    }
    yield* groups.values();
  }
}

function signature(element: Element): string {
  const classes = (classAttribute(element) ?? '')
    .split(/\s+/)
    .filter((name) => name !== '')
    .map((name) => name.replace(/\d+/g, '0'))
    .sort()
    .join('.');
  return `${element.localName}.${classes}`;
}

/** A listing's items carry titles, not one-word menu labels: fewer characters per entry are a menu. */
const MIN_ITEM_CHARS = 25;
/** Fewer items than this are a pair of teasers or a short "related" box. */
const MIN_ITEMS = 5;

/**
 * The items and text (links included) of the largest run of alike siblings whose entries hold titled items:
 * the results of a listing, a category's pages, a job board. Items are often one link each, so
 * they hold text but little prose, which {@link repeatedEntries} does not count.
 */
export function listingRun(
  root: Element,
  weights: ReadonlyMap<Element, TextWeight>,
): { items: number; text: number } {
  let best = { items: 0, text: 0 };
  const textOf = (element: Element) => weights.get(element)?.text ?? 0;
  for (const group of alikeSiblings(root, (element) => textOf(element) > 0)) {
    if (group.length < MIN_ITEMS) continue;
    const total = group.reduce((sum, item) => sum + textOf(item), 0);
    if (total / group.length >= MIN_ITEM_CHARS && total > best.text)
      best = { items: group.length, text: total };
  }
  return best;
}
