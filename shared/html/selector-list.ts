import { attributeValue, classAttribute } from './attribute-value';
import { pageElements } from './page-elements';

export interface SelectorList {
  /** Whether `element` matches any selector of the list. */
  matches(element: Element): boolean;
  /** The elements under `root` that match, in document order, as `root.querySelectorAll` gives them. */
  selectAll(root: ParentNode): Element[];
}

const TAG = /^[a-z][a-z0-9-]*$/i;
const ID = /^#[a-z_][\w-]*$/i;
const CLASS = /^\.[a-z_][\w-]*$/i;
/** Class attributes whose verdict a list remembers; past this it forgets them all and starts again. */
const MAX_CLASS_VERDICTS = 10_000;
/** `[name=value]` with an unquoted or double-quoted value and no case flag. */
const ATTRIBUTE_EQUALS = /^\[([a-z][\w-]*)=(?:([\w-]+)|"([\w -]*)")\]$/i;

/**
 * A fixed list of selectors that matches what the list joined with commas matches, made for the
 * long lists of plain `tag`, `#id`, `.class` and `[name=value]` selectors that boilerplate and
 * banner removal ask of every element: css-select tries a list's selectors one after the other,
 * reading the element's attributes again for each, where those kinds are one lookup each in a set
 * here. The other selectors go to linkedom as one list.
 */
export function createSelectorList(selectors: readonly string[]): SelectorList {
  const tags = new Set<string>();
  const ids = new Set<string>();
  const classes = new Set<string>();
  /** Attribute name (lower case, as HTML parsing stores names) to the values that match. */
  const attributes = new Map<string, Set<string>>();
  const others: string[] = [];
  for (const selector of selectors.map((text) => text.trim())) {
    if (TAG.test(selector)) tags.add(selector.toLowerCase());
    else if (ID.test(selector)) ids.add(selector.slice(1));
    else if (CLASS.test(selector)) classes.add(selector.slice(1));
    else if (ATTRIBUTE_EQUALS.test(selector)) {
      const [, name = '', bare, quoted] = ATTRIBUTE_EQUALS.exec(selector) ?? [];
      const key = name.toLowerCase();
      attributes.set(key, (attributes.get(key) ?? new Set()).add(bare ?? quoted ?? ''));
    } else others.push(selector);
  }
  const rest = others.join(', ');
  /**
   * Verdicts by class attribute: a page's elements share a few dozen class strings (every menu item,
   * every card), so each is split once per list, not once per element.
   */
  const classVerdicts = new Map<string, boolean>();
  const namesAClass = (classNames: string): boolean => {
    let verdict = classVerdicts.get(classNames);
    if (verdict === undefined) {
      // Tokens split at whitespace as css-select's `~=` matches them (`\s`, not just ASCII space).
      verdict = classNames.split(/\s+/).some((name) => classes.has(name));
      if (classVerdicts.size >= MAX_CLASS_VERDICTS) classVerdicts.clear();
      classVerdicts.set(classNames, verdict);
    }
    return verdict;
  };

  const matches = (element: Element): boolean => {
    if (tags.has(element.localName.toLowerCase())) return true;
    if (ids.size > 0 && ids.has(attributeValue(element, 'id') ?? '')) return true;
    if (classes.size > 0) {
      const classNames = classAttribute(element);
      if (classNames !== null && namesAClass(classNames)) return true;
    }
    for (const [name, values] of attributes) {
      const value = attributeValue(element, name);
      if (value !== null && values.has(value)) return true;
    }
    return rest !== '' && element.matches(rest);
  };

  return {
    matches,
    selectAll(root) {
      return pageElements(root).filter(matches);
    },
  };
}
