import { isObject, resolveLocalRef } from '../../platform/llm';

/** A JSON Schema object (booleans and other values are not walked). */
export type SchemaObject = Record<string, unknown>;

export { isObject, resolveLocalRef };

/** `$ref` chains and `anyOf` wrappers followed at most this often for one value. */
const MAX_HOPS = 16;

const isNullType = (schema: unknown) => isObject(schema) && schema.type === 'null';
const describesShape = (schema: SchemaObject) =>
  schema.type !== undefined || schema.properties !== undefined || schema.items !== undefined;

/**
 * The schema that describes a value, as the walkers of extracted data read it: local `$ref`s
 * followed; of an `anyOf`/`oneOf` without a shape of its own (pydantic's `Optional[Model]`), the
 * first branch that is not `{"type": "null"}`; a lone `allOf` entry unwrapped.
 */
export function resolveSchema(root: unknown, schema: unknown): SchemaObject | undefined {
  let node = schema;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    if (!isObject(node)) return undefined;
    if (typeof node.$ref === 'string' && !describesShape(node)) {
      node = resolveLocalRef(root, node.$ref);
      continue;
    }
    const branches = Array.isArray(node.anyOf)
      ? node.anyOf
      : Array.isArray(node.oneOf)
        ? node.oneOf
        : undefined;
    if (branches !== undefined && !describesShape(node)) {
      node = branches.find((branch) => !isNullType(branch));
      continue;
    }
    if (Array.isArray(node.allOf) && node.allOf.length === 1 && !describesShape(node)) {
      node = node.allOf[0];
      continue;
    }
    return node;
  }
  return undefined;
}

/** What a schema says its value is; undefined when it does not say. */
export function schemaKind(schema: SchemaObject | undefined): 'object' | 'array' | 'scalar' | undefined {
  if (schema === undefined) return undefined;
  const declared = Array.isArray(schema.type)
    ? (schema.type as unknown[]).find((type) => type !== 'null')
    : schema.type;
  if (declared === 'object' || (declared === undefined && isObject(schema.properties))) return 'object';
  if (declared === 'array' || (declared === undefined && schema.items !== undefined)) return 'array';
  if (typeof declared === 'string') return 'scalar';
  return undefined;
}

/** The schema of `key` in an object the schema describes. */
export function propertySchema(root: unknown, schema: SchemaObject | undefined, key: string) {
  if (schema === undefined) return undefined;
  const properties = isObject(schema.properties) ? schema.properties : {};
  if (Object.hasOwn(properties, key)) return resolveSchema(root, properties[key]);
  return isObject(schema.additionalProperties) ? resolveSchema(root, schema.additionalProperties) : undefined;
}

/** The schema of the items of an array the schema describes. */
export const itemSchema = (root: unknown, schema: SchemaObject | undefined) =>
  schema === undefined ? undefined : resolveSchema(root, schema.items);

/** The property names the schema lists, in its order. */
export const propertyNames = (schema: SchemaObject | undefined): string[] =>
  schema !== undefined && isObject(schema.properties) ? Object.keys(schema.properties) : [];

/** The property names the schema requires. */
export const requiredNames = (schema: SchemaObject | undefined): string[] =>
  schema !== undefined && Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
