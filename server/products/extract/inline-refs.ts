import { MAX_SCHEMA_NODES } from '../../platform/llm';
import { isObject, resolveLocalRef } from './schema-node';

/** A definition that refers to itself (a tree of comments) is unrolled this many levels, then left open. */
const MAX_REF_DEPTH = 6;

const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

class TooLarge extends Error {}

/**
 * The schema with its local `$ref`s replaced by what they point at (pydantic and zod put nested
 * models in `$defs`), so that the built-in filling, which reads `properties` directly, sees the
 * nested objects. A recursive definition is unrolled MAX_REF_DEPTH levels and then allows anything.
 * Undefined when the inlined schema would exceed guardSchema's node budget: the caller keeps the
 * schema with its references.
 */
export function inlineLocalRefs(root: unknown): unknown {
  let nodes = 0;
  const copy = (value: unknown, depth: number, namesHere: boolean): unknown => {
    nodes += 1;
    if (nodes > MAX_SCHEMA_NODES) throw new TooLarge();
    if (Array.isArray(value)) return value.map((item) => copy(item, depth, false));
    if (!isObject(value)) return value;
    if (!namesHere && typeof value.$ref === 'string') {
      const { $ref: ref, ...siblings } = value;
      const target = resolveLocalRef(root, ref);
      if (!isObject(target)) return copy(siblings, depth, false);
      if (depth >= MAX_REF_DEPTH) return copy(siblings, depth, false);
      const inlined = copy(target, depth + 1, false) as Record<string, unknown>;
      return { ...inlined, ...(copy(siblings, depth, false) as Record<string, unknown>) };
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === '__proto__') continue;
      if (namesHere) out[key] = copy(child, depth, false);
      else out[key] = DATA_KEYWORDS.has(key) ? child : copy(child, depth, NAME_MAPS.has(key));
    }
    return out;
  };
  try {
    if (!isObject(root)) return root;
    // References are read from `root`; once inlined, its definitions are needed no more.
    const { $defs: _defs, definitions: _definitions, ...rest } = root;
    return copy(rest, 0, false);
  } catch (err) {
    if (err instanceof TooLarge) return undefined;
    throw err;
  }
}
