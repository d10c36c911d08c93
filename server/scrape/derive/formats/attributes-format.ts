import { SelectorBudgetError, createBoundedSelect } from './bounded-select';

export interface AttributeSelector {
  selector: string;
  attribute: string;
}

/** One entry of `document.attributes`. */
export interface AttributeValues extends AttributeSelector {
  values: string[];
}

/**
 * Steps (nodes looked at, bounded-select.ts) that matching may take: over every selector of one
 * request, and for any one selector, so that one pathological selector leaves the others room.
 * An ordinary selector takes about five steps per element (200 000 elements: a million steps);
 * a million steps take about 0.1 s, so a request's worst case stays near a second of one worker.
 */
export const ATTRIBUTE_MATCH_BUDGET = 8_000_000;
export const SELECTOR_MATCH_BUDGET = 4_000_000;
/** Values kept per selector, and characters over all values: a page of a million links is not an answer. */
export const MAX_VALUES_PER_SELECTOR = 10_000;
export const MAX_ATTRIBUTE_VALUE_CHARS = 5_000_000;

export interface AttributesRead {
  attributes: AttributeValues[];
  /** Selectors left out because matching ran out of its budget. */
  tooCostly: string[];
  /** Selectors whose values were cut at the bounds above. */
  truncated: string[];
}

/**
 * The attributes format: for each `{ selector, attribute }`, the attribute's values on the matching
 * elements of `document` (the page's HTML as the browser held it, after scripts), in document
 * order, as written in the HTML (URLs are not made absolute). Elements without the attribute add
 * nothing. Selectors were validated before the page was fetched; matching is bounded by the
 * budgets above, and a selector that exhausts its share is reported, not answered.
 */
export function readAttributes(
  document: Document,
  selectors: readonly AttributeSelector[],
  { budget = ATTRIBUTE_MATCH_BUDGET, perSelector = SELECTOR_MATCH_BUDGET } = {},
): AttributesRead {
  const read: AttributesRead = { attributes: [], tooCostly: [], truncated: [] };
  let chars = 0;
  let left = budget;
  for (const { selector, attribute } of selectors) {
    const select = createBoundedSelect(Math.min(perSelector, left));
    let elements: Element[];
    try {
      elements = select.selectAll(document, selector);
    } catch (error) {
      if (!(error instanceof SelectorBudgetError)) throw error;
      read.tooCostly.push(selector);
      continue;
    } finally {
      left = Math.max(0, left - select.spent);
    }
    const values: string[] = [];
    // HTML attribute names are case-insensitive, and the browser's HTML writes them in lower case.
    const name = attribute.toLowerCase();
    for (const element of elements) {
      const value = element.getAttribute(name);
      if (value === null) continue;
      if (values.length >= MAX_VALUES_PER_SELECTOR || chars + value.length > MAX_ATTRIBUTE_VALUE_CHARS) {
        read.truncated.push(selector);
        break;
      }
      chars += value.length;
      values.push(value);
    }
    read.attributes.push({ selector, attribute, values });
  }
  return read;
}

/** What the response says about selectors that could not be answered in full. */
export function attributesWarnings({
  tooCostly,
  truncated,
}: Pick<AttributesRead, 'tooCostly' | 'truncated'>) {
  const warnings: string[] = [];
  if (tooCostly.length > 0) {
    warnings.push(
      `These attribute selectors were too costly to match on this page and were left out of attributes: ${tooCostly.join(', ')}.`,
    );
  }
  if (truncated.length > 0) {
    warnings.push(
      `These attribute selectors matched more values than one response holds (${MAX_VALUES_PER_SELECTOR} per selector, ${MAX_ATTRIBUTE_VALUE_CHARS} characters in all); their values were cut: ${truncated.join(', ')}.`,
    );
  }
  return warnings;
}
