import { isObject, resolveLocalRef } from './schema-ref';

/**
 * Keywords whose subschemas check the same value as the schema that holds them. Every other
 * applicator (`properties`, `items`, `contains`, `propertyNames`, …) moves on to a part of the
 * value, so a loop through one of those ends where the value does.
 */
const SAME_VALUE_SCHEMA = ['not', 'if', 'then', 'else'];
const SAME_VALUE_LISTS = ['allOf', 'anyOf', 'oneOf'];
const SAME_VALUE_MAPS = ['dependentSchemas', 'dependencies'];

/**
 * How many schemas may apply to one value, counting each time a `$ref` or an `allOf`/`anyOf`/
 * `oneOf` brings one in again. Real extraction schemas stay far below; 30 levels of `allOf` with
 * two `$ref`s to the next level make 2^30, and minutes of CPU for each value checked.
 */
export const MAX_SAME_VALUE_CHECKS = 10_000;

type SchemaObject = Record<string, unknown>;

/** The schemas that apply to the same value as `schema` does, once per time they apply. */
function sameValueSchemas(root: unknown, schema: SchemaObject): SchemaObject[] {
  const found: unknown[] = [];
  if (typeof schema.$ref === 'string') found.push(resolveLocalRef(root, schema.$ref));
  for (const key of SAME_VALUE_SCHEMA) found.push(schema[key]);
  for (const key of SAME_VALUE_LISTS) if (Array.isArray(schema[key])) found.push(...schema[key]);
  for (const key of SAME_VALUE_MAPS) if (isObject(schema[key])) found.push(...Object.values(schema[key]));
  return found.filter(isObject);
}

/** Every object in the document, wherever it sits: any of them may be the target of a `$ref`. */
function objectsIn(root: unknown): SchemaObject[] {
  const objects: SchemaObject[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) stack.push(...(value as unknown[]));
    else if (isObject(value)) {
      objects.push(value);
      stack.push(...Object.values(value));
    }
  }
  return objects;
}

/**
 * Why a caller's JSON Schema cannot be checked safely, or undefined when it can. ajv turns a
 * `$ref` into a call: one that comes back to where it started without moving on to a part of the
 * value (`{"$ref": "#"}`, two definitions that name each other, an `allOf` holding its own schema)
 * recurses until the stack overflows, for any value; and references that multiply (`allOf` of two
 * `$ref`s, nested) make work exponential in the nesting. Recursion through `properties` or `items`
 * (a tree of comments, say) is fine: it ends with the value. Walks without recursion; the caller
 * has bounded the schema's size.
 */
export function schemaExpansionProblem(root: unknown): string | undefined {
  /** 'open' while a schema's same-value schemas are being walked; then how many checks it makes. */
  const checks = new Map<SchemaObject, 'open' | number>();
  for (const start of objectsIn(root)) {
    if (checks.has(start)) continue;
    checks.set(start, 'open');
    const path = [{ schema: start, next: sameValueSchemas(root, start), index: 0 }];
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const child = top.next[top.index];
      if (child !== undefined) {
        top.index += 1;
        const state = checks.get(child);
        if (state === 'open') {
          return 'the schema refers back to itself ("$ref", "allOf", …) without moving on to a part of the value, so no value could ever be checked against it';
        }
        if (state === undefined) {
          checks.set(child, 'open');
          path.push({ schema: child, next: sameValueSchemas(root, child), index: 0 });
        }
        continue;
      }
      const total = top.next.reduce((sum, next) => sum + (checks.get(next) as number), 1);
      if (total > MAX_SAME_VALUE_CHECKS) {
        return `the schema applies more than ${MAX_SAME_VALUE_CHECKS} schemas to one value ("$ref"s inside "allOf", "anyOf" or "oneOf" multiply)`;
      }
      checks.set(top.schema, total);
      path.pop();
    }
  }
  return undefined;
}
