import { isDocument } from './embedded/compare-values';

const ESCAPES: Record<string, string> = { '%': '%25', '.': '%2E', $: '%24' };
const UNESCAPES: Record<string, string> = { '25': '%', '2E': '.', '24': '$' };

/** One field name as stored: `.`, a leading `$` and `%` percent-escaped. */
export function escapeKey(key: string): string {
  return key.replace(/[%.]|^\$/g, (char) => ESCAPES[char] ?? char);
}

/** The field name escapeKey was given. */
export function unescapeKey(key: string): string {
  return key.replace(/%(25|2E|24)/g, (escape, code: string) => UNESCAPES[code] ?? escape);
}

/**
 * FerretDB refuses field names with a `.` or a leading `$`, which stored data has: meta tag names in
 * page metadata (`DC.title`, `msvalidate.01`), header names and JSON Schema keys (`$schema`) in
 * stored requests. Such keys are kept percent-escaped on disk (`%` too, so any key round-trips).
 * Our own field names have none of these characters, so filters and sorts never see an escape.
 */
export function escapeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(escapeKeys);
  if (!isDocument(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    copy[escapeKey(key)] = escapeKeys(field);
  }
  return copy;
}

/** Undoes escapeKeys in place on a row the driver handed out (its own copy), keeping the key order. */
export function unescapeKeysInPlace(value: unknown): void {
  if (Array.isArray(value)) {
    for (const element of value) unescapeKeysInPlace(element);
    return;
  }
  if (!isDocument(value)) return;
  const entries = Object.entries(value);
  for (const [, field] of entries) unescapeKeysInPlace(field);
  if (!entries.some(([key]) => key.includes('%'))) return;
  for (const [key] of entries) delete value[key];
  for (const [key, field] of entries) {
    value[unescapeKey(key)] = field;
  }
}

/** An update with escapeKeys applied to the values its operators set; field paths are ours. */
export function escapeUpdateValues<U extends object>(update: U): U {
  return Object.fromEntries(
    Object.entries(update).map(([operator, fields]) => [
      operator,
      isDocument(fields)
        ? Object.fromEntries(
            Object.entries(fields).map(([path, value]) => [path, escapeOperand(operator, value)]),
          )
        : fields,
    ]),
  ) as U;
}

/** `$push: { log: { $each: [...] } }`: the modifiers stay, the values they carry are escaped. */
function escapeOperand(operator: string, value: unknown): unknown {
  if ((operator === '$push' || operator === '$addToSet') && isDocument(value) && '$each' in value) {
    return Object.fromEntries(
      Object.entries(value).map(([modifier, inner]) => [modifier, escapeKeys(inner)]),
    );
  }
  return escapeKeys(value);
}
