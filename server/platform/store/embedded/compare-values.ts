/**
 * MongoDB's ordering of BSON values, restricted to the types the port stores, so that the
 * embedded store sorts and compares exactly as the server does.
 */

/** BSON comparison order: null (and missing) < numbers < strings < objects < arrays < booleans < dates. */
export function typeRank(value: unknown): number {
  if (value === undefined || value === null) return 1;
  if (typeof value === 'number') return 2;
  if (typeof value === 'string') return 3;
  if (typeof value === 'boolean') return 8;
  if (value instanceof Date) return 9;
  if (Array.isArray(value)) return 5;
  return 4;
}

export function compareValues(a: unknown, b: unknown): number {
  const rank = typeRank(a) - typeRank(b);
  if (rank !== 0) return Math.sign(rank);
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  if (Array.isArray(a) && Array.isArray(b)) return compareLists(a, b);
  if (isDocument(a) && isDocument(b)) return compareDocuments(a, b);
  return 0;
}

/** Equality as a query sees it: 1 equals 1.0, dates by instant, documents field by field in order. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  return compareValues(a, b) === 0;
}

export function isDocument(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * MongoDB compares strings as UTF-8 bytes, which is code point order. UTF-16 code units agree
 * except at a surrogate: an astral character (a high surrogate here) sorts after every BMP
 * character, U+E000–U+FFFF included, whose code units are larger. Walking the units avoids
 * encoding both strings on every comparison of a sort.
 */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const left = a.charCodeAt(i);
    const right = b.charCodeAt(i);
    if (left === right) continue;
    const leftAstral = left >= 0xd800 && left <= 0xdbff;
    const rightAstral = right >= 0xd800 && right <= 0xdbff;
    if (leftAstral !== rightAstral) return leftAstral ? 1 : -1;
    return left < right ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}

function compareLists(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const order = compareValues(a[i], b[i]);
    if (order !== 0) return order;
  }
  return Math.sign(a.length - b.length);
}

/** Field order matters, as in BSON: `{a: 1, b: 2}` is not `{b: 2, a: 1}`. */
function compareDocuments(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const left = Object.entries(a);
  const right = Object.entries(b);
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const [leftKey, leftValue] = left[i] as [string, unknown];
    const [rightKey, rightValue] = right[i] as [string, unknown];
    const order =
      typeRank(leftValue) - typeRank(rightValue) ||
      compareStrings(leftKey, rightKey) ||
      compareValues(leftValue, rightValue);
    if (order !== 0) return Math.sign(order);
  }
  return Math.sign(left.length - right.length);
}
