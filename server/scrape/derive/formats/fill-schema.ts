import { type LabelledValue, normalizeLabel } from './page-labels';
import type { JsonObject } from './structured-data';

/** What the page states about itself, in the order the json format trusts it. */
export interface PageFacts {
  jsonLd: JsonObject[];
  microdata: JsonObject[];
  labels: Map<string, LabelledValue>;
  /** What the page calls itself (first h1, else og:title): the object of that name is the page's subject. */
  subject?: string | undefined;
  /** Page metadata (`title`, `description`, `og:title`, …). */
  metadata: Record<string, string | string[]>;
}

type Schema = Record<string, unknown>;

/** Property names that mean the same thing across schema.org, OpenGraph and everyday schemas. */
const SYNONYMS: Record<string, string[]> = {
  title: ['name', 'headline', 'ogtitle'],
  name: ['title', 'headline', 'ogtitle'],
  headline: ['name', 'title'],
  description: ['summary', 'ogdescription'],
  summary: ['description'],
  image: ['ogimage', 'thumbnailurl'],
  date: ['datepublished', 'publishedtime'],
  published: ['datepublished', 'publishedtime'],
  publishedat: ['datepublished', 'publishedtime'],
  author: ['creator'],
  cost: ['price'],
  price: ['cost'],
};
const MAX_NESTING = 6;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const typeOf = (schema: Schema): string | undefined => {
  const type = schema.type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') as string | undefined;
  if (typeof type === 'string') return type;
  if (isObject(schema.properties)) return 'object';
  if (isObject(schema.items)) return 'array';
  return undefined;
};

function namesFor(property: string): string[] {
  const key = normalizeLabel(property);
  return [key, ...(SYNONYMS[key] ?? [])];
}

/** A key of the object (or of its nested objects, a few levels down: `offers.price`) with this name. */
function lookup(object: JsonObject, names: string[], depth = 0): unknown {
  for (const [key, value] of Object.entries(object)) {
    if (names.includes(normalizeLabel(key))) return value;
  }
  if (depth >= 2) return undefined;
  for (const value of Object.values(object)) {
    const nested = Array.isArray(value) ? value.find(isObject) : value;
    if (isObject(nested)) {
      const found = lookup(nested, names, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const NUMBER = /-?\d[\d\s,.']*/;

function parseNumber(text: string): number | undefined {
  const match = NUMBER.exec(text)?.[0].replace(/[\s']/g, '');
  if (match === undefined) return undefined;
  // "1,299.00" and "1.299,00": the last separator followed by 1–2 digits is the decimal one.
  const decimal = /[.,](\d{1,2})$/.exec(match);
  const integer = (decimal ? match.slice(0, decimal.index) : match).replace(/[.,]/g, '');
  const value = Number(decimal ? `${integer}.${decimal[1]}` : integer);
  return Number.isFinite(value) ? value : undefined;
}

/** A found value in the shape the schema asks for, or undefined when it cannot be had without inventing. */
function coerce(value: unknown, schema: Schema, facts: PageFacts, depth: number): unknown {
  if (value === undefined || value === null) return undefined;
  const type = typeOf(schema);
  if (Array.isArray(value) && type !== 'array') return coerce(value[0], schema, facts, depth);
  let result: unknown;
  switch (type) {
    case 'string':
      if (isObject(value)) result = coerce(value.name ?? value['@value'] ?? value.url, schema, facts, depth);
      else result = typeof value === 'string' ? value.trim() || undefined : String(value);
      break;
    case 'number':
    case 'integer': {
      const number =
        typeof value === 'number' ? value : typeof value === 'string' ? parseNumber(value) : undefined;
      result = number === undefined || (type === 'integer' && !Number.isInteger(number)) ? undefined : number;
      break;
    }
    case 'boolean':
      if (typeof value === 'boolean') result = value;
      else if (typeof value === 'string' && /^(true|yes)$/i.test(value.trim())) result = true;
      else if (typeof value === 'string' && /^(false|no)$/i.test(value.trim())) result = false;
      break;
    case 'array': {
      const items = isObject(schema.items) ? schema.items : {};
      const list = Array.isArray(value) ? value : isLabelled(value) ? value.items : [value];
      const coerced = list
        .map((item) => coerce(item, items, facts, depth + 1))
        .filter((item) => item !== undefined);
      result = coerced.length > 0 ? coerced : undefined;
      break;
    }
    case 'object':
      result =
        isObject(value) && depth < MAX_NESTING ? fillObject(schema, [value], facts, depth + 1) : undefined;
      break;
    default:
      result = isLabelled(value) ? value.text : value;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(result)) return undefined;
  return result;
}

const isLabelled = (value: unknown): value is LabelledValue =>
  isObject(value) &&
  typeof value.text === 'string' &&
  Array.isArray(value.items) &&
  Object.keys(value).length === 2;

/**
 * The objects ordered by how well they answer the schema: most properties found first, the page's
 * subject (its name is the page's heading) before others, then page order.
 */
function rank(objects: JsonObject[], properties: string[], facts: PageFacts): JsonObject[] {
  const subject = normalizeLabel(facts.subject ?? '');
  const score = (object: JsonObject) =>
    properties.filter((property) => lookup(object, namesFor(property)) !== undefined).length +
    (subject !== '' &&
    [object.name, object.headline].some(
      (name) => typeof name === 'string' && normalizeLabel(name) === subject,
    )
      ? 0.5
      : 0);
  return objects
    .map((object, index) => ({ object, index, score: score(object) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ object }) => object);
}

function fillObject(
  schema: Schema,
  objects: JsonObject[],
  facts: PageFacts,
  depth: number,
): JsonObject | undefined {
  const properties = isObject(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
  if (objects.length > 1) objects = rank(objects, Object.keys(properties), facts);
  const out: JsonObject = {};
  for (const [property, subschema] of Object.entries(properties)) {
    const value = findProperty(property, isObject(subschema) ? subschema : {}, objects, facts, depth);
    if (value !== undefined) out[property] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function findProperty(
  property: string,
  schema: Schema,
  objects: JsonObject[],
  facts: PageFacts,
  depth: number,
): unknown {
  const names = namesFor(property);
  for (const object of objects) {
    const value = coerce(lookup(object, names), schema, facts, depth);
    if (value !== undefined) return value;
  }
  if (depth > 0) return undefined;
  // Top level only: the page's own text and metadata describe the page, not a nested item.
  for (const name of names) {
    const labelled = facts.labels.get(name);
    const value =
      labelled === undefined
        ? undefined
        : coerce(typeOf(schema) === 'array' ? labelled : labelled.text, schema, facts, depth);
    if (value !== undefined) return value;
  }
  for (const name of names) {
    const meta = Object.entries(facts.metadata).find(([key]) =>
      [name, `og${name}`, `twitter${name}`].includes(normalizeLabel(key)),
    );
    const value = meta === undefined ? undefined : coerce(meta[1], schema, facts, depth);
    if (value !== undefined) return value;
  }
  if (typeOf(schema) === 'array' && isObject(schema.items) && typeOf(schema.items) === 'object') {
    // A list of things ("products") the page publishes as separate items rather than under one key.
    const items = [...facts.jsonLd, ...facts.microdata]
      .flatMap((object) =>
        Array.isArray(object.itemListElement) ? object.itemListElement.filter(isObject) : [object],
      )
      .map((object) =>
        fillObject(schema.items as Schema, [isObject(object.item) ? object.item : object], facts, depth + 1),
      )
      .filter((item): item is JsonObject => item !== undefined && Object.keys(item).length >= 2);
    if (items.length > 0) return items;
  }
  return undefined;
}

/**
 * Fills a JSON Schema from what the page states, without a language model: each property name
 * (and a few synonyms) is looked up in the JSON-LD and microdata objects, then among the page's
 * labelled values, then in its metadata, and coerced to the property's type. What is not found is
 * left out; nothing is invented. The result still has to pass the schema (json-format.ts).
 */
export function fillSchema(schema: Schema, facts: PageFacts): unknown {
  const objects = [...facts.jsonLd, ...facts.microdata];
  if (typeOf(schema) === 'array') return findProperty('items', { ...schema }, objects, facts, 0) ?? [];
  return fillObject(schema, objects, facts, 0) ?? {};
}
