import { isObject } from './schema-node';

/**
 * Keywords that ask a value to be complete. One page rarely states everything a schema requires;
 * its extraction is asked for what it does state, and completeness is judged once, after the merge.
 */
const COMPLETENESS_KEYWORDS = new Set(['required', 'minItems', 'minProperties', 'dependentRequired']);
/** Keywords whose object keys are names (of properties, definitions), not keywords. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords holding data rather than schemas. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

/**
 * The schema one page's extraction is checked against: the caller's, without the keywords that
 * demand completeness, wherever they are (nested objects, definitions). A property that happens
 * to be called `required` stays. The caller's schema has passed guardSchema, so its depth is
 * bounded and recursion is safe.
 */
export function relaxSchema(schema: unknown): unknown {
  return relax(schema, false);
}

function relax(value: unknown, namesHere: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => relax(item, false));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '__proto__') continue;
    if (namesHere) {
      out[key] = relax(child, false);
      continue;
    }
    if (COMPLETENESS_KEYWORDS.has(key)) continue;
    out[key] = DATA_KEYWORDS.has(key) ? child : relax(child, NAME_MAPS.has(key));
  }
  return out;
}
