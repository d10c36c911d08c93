import { collapsedTextLength, collapseWhitespace } from './collapsed-text-length';

/**
 * Headings a shop puts over other products than the one on the page: carousels of similar,
 * related, recommended or recently viewed items, and "bought together" bundles. They are a grid of
 * other pages' titles and prices, not the product a reader asked for (issue 35). English, German,
 * French and Spanish wording, found anywhere in a short heading.
 */
const RECOMMENDATION_HEADINGS: readonly RegExp[] = [
  /(similar|related|recommended|featured|sponsored|popular|trending|recently viewed|more) (items|products|models|styles|picks)/i,
  /(people|customers|shoppers) (who (viewed|bought)[\w ]*)?also (viewed|bought|liked|purchased)/i,
  /(you|we think you) (may|might|will|could) (also )?(like|love|enjoy)/i,
  /recommended for you|frequently bought together|complete the look|explore related items|compare (with )?similar items/i,
  /more from (this|the) (seller|brand|shop|store|collection)/i,
  /ähnliche (artikel|produkte)|das könnte (dir|ihnen) auch gefallen|produits similaires|vous aimerez aussi|productos (similares|relacionados)/i,
];

/** A heading longer than this is a product's own title or a sentence, not a carousel's caption. */
const MAX_HEADING_CHARS = 60;
/** A section holding more than this share of the content's text is not a side carousel. */
const MAX_SECTION_SHARE = 0.5;
const HEADINGS = 'h2, h3, h4, h5, h6';

/**
 * Removes, under `root`, the sections that a recommendation heading opens: the heading's widest
 * ancestor that begins with it and holds no `<h1>` (the product's title), or, when the heading
 * shares its parent with content before it, the heading and the siblings after it up to the next
 * heading of its level or above. A section holding most of the content's text stays: then the page
 * is the carousel.
 */
export function removeRecommendationSections(root: Element): void {
  // Measured when a heading first asks: most pages have no such heading.
  let total: number | undefined;
  for (const heading of Array.from(root.querySelectorAll(HEADINGS))) {
    if (!heading.isConnected) continue;
    if (collapsedTextLength(heading, { stopAbove: MAX_HEADING_CHARS }) > MAX_HEADING_CHARS) continue;
    const caption = collapseWhitespace(heading.textContent);
    if (!RECOMMENDATION_HEADINGS.some((pattern) => pattern.test(caption))) continue;
    const section = sectionOf(heading, root);
    const nodes = section === heading ? [heading, ...followingUntilHeading(heading)] : [section];
    const text = nodes.reduce((sum, node) => sum + collapsedTextLength(node), 0);
    total ??= collapsedTextLength(root);
    if (text > total * MAX_SECTION_SHARE) continue;
    for (const node of nodes) node.remove();
  }
}

/** The widest ancestor of `heading` below `root` whose first heading it is and that holds no `<h1>`. */
function sectionOf(heading: Element, root: Element): Element {
  let section = heading;
  for (
    let parent = heading.parentElement;
    parent !== null && parent !== root;
    parent = parent.parentElement
  ) {
    if (parent.querySelector(`h1, ${HEADINGS}`) !== heading) break;
    section = parent;
  }
  return section;
}

/** The siblings after `heading` up to the next one that is or holds a heading of its level or above. */
function followingUntilHeading(heading: Element): Element[] {
  const level = Number(heading.localName.slice(1));
  const stop = ['h1', ...[2, 3, 4, 5, 6].filter((n) => n <= level).map((n) => `h${n}`)].join(', ');
  const nodes: Element[] = [];
  for (let next = heading.nextElementSibling; next !== null; next = next.nextElementSibling) {
    if (next.matches(stop) || next.querySelector(stop) !== null) break;
    nodes.push(next);
  }
  return nodes;
}
