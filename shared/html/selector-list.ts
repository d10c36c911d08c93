import { classAttribute } from './class-attribute';

export interface SelectorList {
  /** Whether `element` matches any selector of the list. */
  matches(element: Element): boolean;
  /** The elements under `root` that match, in document order, as `root.querySelectorAll` gives them. */
  selectAll(root: ParentNode): Element[];
}

const TAG = /^[a-z][a-z0-9-]*$/i;
const ID = /^#[a-z_][\w-]*$/i;
const CLASS = /^\.[a-z_][\w-]*$/i;

/**
 * A fixed list of selectors that matches what the list joined with commas matches, made for the
 * long lists of plain `tag`, `#id` and `.class` selectors that boilerplate and banner removal ask
 * of every element: css-select tries a list's selectors one after the other, reading the element's
 * attributes again for each, where those three kinds are one lookup each in a set here. The other
 * selectors go to linkedom as one list.
 */
export function createSelectorList(selectors: readonly string[]): SelectorList {
  const tags = new Set<string>();
  const ids = new Set<string>();
  const classes = new Set<string>();
  const others: string[] = [];
  for (const selector of selectors.map((text) => text.trim())) {
    if (TAG.test(selector)) tags.add(selector.toLowerCase());
    else if (ID.test(selector)) ids.add(selector.slice(1));
    else if (CLASS.test(selector)) classes.add(selector.slice(1));
    else others.push(selector);
  }
  const rest = others.join(', ');

  const matches = (element: Element): boolean => {
    if (tags.has(element.localName.toLowerCase())) return true;
    if (ids.size > 0 && ids.has(element.getAttribute('id') ?? '')) return true;
    if (classes.size > 0) {
      // Tokens split at whitespace as css-select's `~=` matches them (`\s`, not just ASCII space).
      const classNames = classAttribute(element);
      if (classNames !== null && classNames.split(/\s+/).some((name) => classes.has(name))) return true;
    }
    return rest !== '' && element.matches(rest);
  };

  return {
    matches,
    selectAll(root) {
      const found: Element[] = [];
      for (let element = root.firstElementChild; element !== null; element = following(element, root)) {
        if (matches(element)) found.push(element);
      }
      return found;
    },
  };
}

/**
 * The element after `element` in document order within `root`, without recursion (a hostile page
 * nests deeper than the stack goes). linkedom's queries leave out what a <template> holds, as it
 * is not part of the page; so does this.
 */
function following(element: Element, root: ParentNode): Element | null {
  if (element.localName !== 'template' && element.firstElementChild !== null)
    return element.firstElementChild;
  for (let current: Element | null = element; current !== null; current = current.parentElement) {
    if (current.nextElementSibling !== null) return current.nextElementSibling;
    if (current.parentNode === root) return null;
  }
  return null;
}
