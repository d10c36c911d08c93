import { isEmptyValue } from './page-extraction';
import {
  type SchemaObject,
  isObject,
  itemSchema,
  propertySchema,
  requiredNames,
  resolveSchema,
  schemaKind,
} from './schema-node';
import { ANY_INDEX, type ValuePath, formatPath } from './value-path';

/**
 * The fields the schema requires that the data leaves empty, nested ones included, as paths:
 * `name`, `address.city`, `products[].price` (a field some items lack). A required object that is
 * missing is named once, not with each of its own required fields. Optional objects that are
 * absent are not looked into.
 */
export function missingRequired(schema: unknown, data: unknown): string[] {
  const missing = new Set<string>();

  const walk = (node: SchemaObject | undefined, value: unknown, path: ValuePath, depth: number) => {
    // The schema's depth is bounded (guardSchema); a value deeper than it is not described.
    if (node === undefined || depth > 64) return;
    const kind = schemaKind(node);
    if ((kind === 'object' || kind === undefined) && isObject(value)) {
      for (const name of requiredNames(node)) {
        if (isEmptyValue(value[name])) missing.add(formatPath([...path, name]));
      }
      for (const [key, child] of Object.entries(value)) {
        // An empty required child was named above; its own fields would only repeat it.
        if (!isEmptyValue(child)) walk(propertySchema(schema, node, key), child, [...path, key], depth + 1);
      }
    } else if ((kind === 'array' || kind === undefined) && Array.isArray(value)) {
      const items = itemSchema(schema, node);
      for (const item of value) walk(items, item, [...path, ANY_INDEX], depth + 1);
    }
  };

  const root = resolveSchema(schema, schema);
  if (isEmptyValue(data) && schemaKind(root) !== 'array') {
    for (const name of requiredNames(root)) missing.add(formatPath([name]));
  } else {
    walk(root, data, [], 0);
  }
  return [...missing];
}
