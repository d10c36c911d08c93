import { errors } from '../errors';

/**
 * Bounds on a parsed request body, checked before any schema sees it (docs/security.md#hostile-input).
 * Deep values crash recursive walkers (JSON.stringify overflows the stack near 10,000
 * levels), huge arrays and objects make validation slow, and `__proto__` / `constructor` keys
 * pollute prototypes once something merges the body into another object.
 */
export const JSON_LIMITS = {
  /** Objects and arrays inside each other; MongoDB itself refuses documents deeper than 100. */
  maxDepth: 32,
  /** Elements of one array: room for a large batch of URLs. */
  maxArrayLength: 50_000,
  /** Keys of one object. */
  maxObjectKeys: 10_000,
  /** Characters of one string (a prompt, a schema description, an action script). */
  maxStringLength: 1_000_000,
} as const;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);

type Path = ReadonlyArray<string | number>;

/**
 * Refuses JSON text that nests deeper than `maxDepth` before it is parsed: JSON.parse takes a
 * third of a second over a million nested brackets, which is a third of a second of event loop
 * per request. One pass over the characters, skipping strings.
 */
export function checkJsonTextDepth(text: string, maxDepth: number = JSON_LIMITS.maxDepth): void {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index += 1; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > maxDepth)
        throw errors.bodyTooComplex(`The body may nest objects and arrays at most ${maxDepth} deep`, []);
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
    }
  }
}

/**
 * Walks a parsed JSON value without recursion and throws Firecrawl's 400 (BAD_REQUEST, with the
 * offending path in `details`) at the first value outside JSON_LIMITS or key that is forbidden.
 */
export function inspectJson(value: unknown, limits: typeof JSON_LIMITS = JSON_LIMITS): void {
  const stack: Array<{ value: unknown; depth: number; path: Path }> = [{ value, depth: 0, path: [] }];
  const checkString = (text: string, path: Path) => {
    if (text.length > limits.maxStringLength)
      throw errors.bodyTooComplex(`Strings may have at most ${limits.maxStringLength} characters`, path);
  };
  while (stack.length > 0) {
    const { value: current, depth, path } = stack.pop()!;
    if (typeof current === 'string') {
      checkString(current, path);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= limits.maxDepth)
      throw errors.bodyTooComplex(
        `The body may nest objects and arrays at most ${limits.maxDepth} deep`,
        path,
      );
    if (Array.isArray(current)) {
      if (current.length > limits.maxArrayLength)
        throw errors.bodyTooComplex(`Arrays may have at most ${limits.maxArrayLength} elements`, path);
      for (let index = 0; index < current.length; index += 1) {
        const item: unknown = current[index];
        if (typeof item === 'string') checkString(item, [...path, index]);
        else if (item !== null && typeof item === 'object')
          stack.push({ value: item, depth: depth + 1, path: [...path, index] });
      }
      continue;
    }
    const keys = Object.keys(current);
    if (keys.length > limits.maxObjectKeys)
      throw errors.bodyTooComplex(`Objects may have at most ${limits.maxObjectKeys} keys`, path);
    for (const key of keys) {
      if (FORBIDDEN_KEYS.has(key)) throw errors.forbiddenKey(key, [...path, key]);
      checkString(key, path);
      const child: unknown = (current as Record<string, unknown>)[key];
      if (typeof child === 'string') checkString(child, [...path, key]);
      else if (child !== null && typeof child === 'object')
        stack.push({ value: child, depth: depth + 1, path: [...path, key] });
    }
  }
}
