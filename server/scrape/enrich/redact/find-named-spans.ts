import type { PiiSpan } from './pii-span';
import { isWordCharAt } from './pattern-scan';
import type { NamedEntity } from './ask-llm-for-names';

/** Most names a page's redaction replaces; a model that lists more is listing words. */
export const MAX_NAMES = 500;

/**
 * Every occurrence of the names in `text` as a whole word (`Ann` is not replaced inside `Annual`),
 * found by plain string search: names come from a model reading the page and are never patterns.
 */
export function findNamedSpans(
  text: string,
  names: ReadonlyArray<{ text: string; entity: NamedEntity }>,
): PiiSpan[] {
  const spans: PiiSpan[] = [];
  for (const name of names.slice(0, MAX_NAMES)) {
    for (let at = text.indexOf(name.text); at >= 0; at = text.indexOf(name.text, at + name.text.length)) {
      const end = at + name.text.length;
      const wholeWord =
        !(isWordCharAt(text, at) && isWordCharAt(text, at - 1)) &&
        !(isWordCharAt(text, end - 1) && isWordCharAt(text, end));
      if (wholeWord) spans.push({ start: at, end, entity: name.entity });
    }
  }
  return spans;
}
