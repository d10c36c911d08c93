/**
 * The playground's form, derived from the request body schema of `POST /v2/scrape` in the server's
 * `/openapi.json` (which the server generates from the zod schemas the route validates with), so a
 * new scrape option appears in the console without a console change. Pure functions: no DOM.
 */

type JsonSchema = { readonly [keyword: string]: unknown };

/** How one option is edited: the widget follows from the option's JSON Schema. */
export type FieldKind = 'boolean' | 'enum' | 'number' | 'text' | 'list' | 'json';

export interface FormField {
  name: string;
  kind: FieldKind;
  label: string;
  /** The schema's description (when it has one) and its constraints, in words. */
  help: string;
  /** The server's default for the field: a field left at it is not sent. */
  defaultValue?: unknown;
  integer: boolean;
  min?: number;
  max?: number;
  /** `enum` fields: the allowed values. */
  choices: string[];
  /** `json` fields: the JSON type the value must have. */
  jsonType?: 'object' | 'array';
  /** Shown under "Advanced options" rather than at once. */
  advanced: boolean;
}

/** One output format: its name, and the options its object form (`{ type, … }`) takes. */
export interface FormatChoice {
  name: string;
  optionNames: string[];
  requiredOptions: string[];
}

export interface ScrapeForm {
  formats: FormatChoice[];
  fields: FormField[];
}

/** What the user has entered: text as typed, so a half-typed value is shown, not lost. */
export interface FormState {
  url: string;
  formats: string[];
  /** Per format name: a JSON object of that format's options, as typed ('' for none). */
  formatOptions: Record<string, string>;
  values: Record<string, string | boolean>;
}

/** The request body (only what differs from the server's defaults) and the entries it cannot use. */
export interface BuiltRequest {
  body: { url: string; formats: Array<string | Record<string, unknown>>; [option: string]: unknown };
  problems: Record<string, string>;
}

/**
 * Fields the form does not offer: the URL and formats have widgets of their own; the others are
 * Firecrawl's internal or analytics fields, which the API accepts for compatibility and ignores.
 */
const NOT_OFFERED = new Set(['url', 'formats', 'useMock', 'origin', 'integration']);
/** The options shown at once; every other one is under "Advanced options". */
const BASIC = ['onlyMainContent', 'mobile', 'waitFor', 'timeout', 'maxAge'];
/** Labels for the options whose camelCase name alone says little; the rest are spelled out from it. */
const LABELS: Record<string, string> = {
  onlyMainContent: 'Main content only',
  waitFor: 'Wait after load (ms)',
  timeout: 'Timeout (ms)',
  maxAge: 'Accept a cached copy up to (ms old)',
  minAge: 'Only a cached copy at least (ms old)',
  includeTags: 'Only these elements (CSS selectors)',
  excludeTags: 'Leave out these elements (CSS selectors)',
  skipTlsVerification: 'Skip TLS verification',
  removeBase64Images: 'Remove base64 images',
  redactPII: 'Redact personal data',
};
/** Integers beyond this are "no limit" in the schema (zod's safe-integer bound), not a useful max. */
const UNBOUNDED = 2 ** 40;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows `#/components/schemas/<name>` references, the only kind the document holds. */
function resolver(document: unknown) {
  const components = isRecord(document) && isRecord(document.components) ? document.components : {};
  const schemas = isRecord(components.schemas) ? components.schemas : {};
  return (schema: unknown): JsonSchema => {
    let current = schema;
    for (let hops = 0; isRecord(current) && typeof current.$ref === 'string' && hops < 10; hops += 1) {
      const name = /^#\/components\/schemas\/(.+)$/.exec(current.$ref)?.[1];
      current = name === undefined ? {} : schemas[name];
    }
    return isRecord(current) ? current : {};
  };
}

const spelledOut = (name: string) => {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const numberOf = (value: unknown) => (typeof value === 'number' ? value : undefined);
const stringsOf = (value: unknown) =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

function kindOf(schema: JsonSchema, resolve: (schema: unknown) => JsonSchema): FieldKind {
  if (schema.type === 'boolean') return 'boolean';
  if (schema.type === 'string') return Array.isArray(schema.enum) ? 'enum' : 'text';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  if (schema.type === 'array') {
    const items = resolve(schema.items);
    if (items.type === 'string') return 'list';
  }
  return 'json';
}

/** What a JSON field holds, from its schema: an object's keys, or the `type`s of an array's items. */
function shapeInWords(schema: JsonSchema, resolve: (schema: unknown) => JsonSchema): string {
  const keys = (object: JsonSchema) => (isRecord(object.properties) ? Object.keys(object.properties) : []);
  if (schema.type === 'object' && keys(schema).length > 0) return `Keys: ${keys(schema).join(', ')}.`;
  const items = resolve(schema.items);
  const alternatives = (Array.isArray(items.oneOf) ? items.oneOf : []).map(resolve);
  const types = alternatives
    .map((alternative) =>
      isRecord(alternative.properties) ? resolve(alternative.properties.type).const : undefined,
    )
    .filter((type): type is string => typeof type === 'string');
  if (types.length > 0) return `Each item has a type: ${types.join(', ')}.`;
  const choices = (Array.isArray(schema.anyOf) ? schema.anyOf : []).map(resolve);
  if (choices.length > 0)
    return `Either ${choices.map((choice) => (choice.type === 'object' ? `an object (${keys(choice).join(', ')})` : String(choice.type))).join(' or ')}.`;
  return '';
}

function constraintsInWords(
  field: Omit<FormField, 'help'>,
  schema: JsonSchema,
  resolve: (schema: unknown) => JsonSchema,
): string {
  const parts: string[] = [];
  if (typeof schema.description === 'string') parts.push(schema.description);
  if (field.kind === 'number') {
    if (field.min !== undefined && field.max !== undefined) parts.push(`From ${field.min} to ${field.max}.`);
    else if (field.min !== undefined) parts.push(`At least ${field.min}.`);
  }
  if (field.kind === 'list') parts.push('Separate entries with commas.');
  if (field.kind === 'json') parts.push(`JSON ${field.jsonType ?? 'value'}.`, shapeInWords(schema, resolve));
  if (field.defaultValue !== undefined) parts.push(`Default: ${JSON.stringify(field.defaultValue)}.`);
  else if (field.kind === 'boolean' || field.kind === 'enum') parts.push('Not set by default.');
  return parts.filter((part) => part !== '').join(' ');
}

function fieldOf(name: string, property: unknown, resolve: (schema: unknown) => JsonSchema): FormField {
  const schema = resolve(property);
  const kind = kindOf(schema, resolve);
  const integer = schema.type === 'integer';
  const exclusiveMin = numberOf(schema.exclusiveMinimum);
  const min =
    numberOf(schema.minimum) ?? (exclusiveMin === undefined ? undefined : exclusiveMin + (integer ? 1 : 0));
  const max = numberOf(schema.maximum);
  const field: Omit<FormField, 'help'> = {
    name,
    kind,
    label: LABELS[name] ?? spelledOut(name),
    ...(schema.default === undefined ? {} : { defaultValue: schema.default }),
    integer,
    ...(min === undefined ? {} : { min }),
    ...(max === undefined || max >= UNBOUNDED ? {} : { max }),
    choices: kind === 'enum' ? stringsOf(schema.enum) : [],
    ...(kind === 'json' && (schema.type === 'object' || schema.type === 'array')
      ? { jsonType: schema.type }
      : {}),
    advanced: !BASIC.includes(name),
  };
  return { ...field, help: constraintsInWords(field, schema, resolve) };
}

/** The format names and, for each, the options of its object form, from the `formats` items schema. */
function formatChoicesOf(formats: JsonSchema, resolve: (schema: unknown) => JsonSchema): FormatChoice[] {
  const items = resolve(formats.items);
  const alternatives = [...(Array.isArray(items.anyOf) ? items.anyOf : [items])].map(resolve);
  const names = alternatives.flatMap((alternative) =>
    alternative.type === 'string' ? stringsOf(alternative.enum) : [],
  );
  const objects = alternatives
    .flatMap((alternative) => (Array.isArray(alternative.oneOf) ? alternative.oneOf : []))
    .map(resolve);
  return names.map((name) => {
    const object = objects.find((candidate) => {
      const properties = isRecord(candidate.properties) ? candidate.properties : {};
      return resolve(properties.type).const === name;
    });
    const properties = isRecord(object?.properties) ? object.properties : {};
    return {
      name,
      optionNames: Object.keys(properties).filter((key) => key !== 'type'),
      requiredOptions: stringsOf(object?.required).filter((key) => key !== 'type'),
    };
  });
}

/** The playground form for `POST /v2/scrape`, from the server's OpenAPI document. */
export function scrapeFormFromOpenApi(document: unknown): ScrapeForm {
  const resolve = resolver(document);
  const paths = isRecord(document) && isRecord(document.paths) ? document.paths : {};
  const operation = resolve(resolve(paths['/v2/scrape']).post);
  const content = resolve(resolve(operation.requestBody).content);
  const body = resolve(resolve(content['application/json']).schema);
  const properties = isRecord(body.properties) ? body.properties : {};
  if (!isRecord(properties.url) || !isRecord(properties.formats))
    throw new Error('The server’s OpenAPI document has no scrape request schema.');
  const fields = Object.entries(properties)
    .filter(([name]) => !NOT_OFFERED.has(name) && !name.startsWith('__'))
    .map(([name, property]) => fieldOf(name, property, resolve));
  const basic = BASIC.flatMap((name) => fields.filter((field) => field.name === name));
  return {
    formats: formatChoicesOf(resolve(properties.formats), resolve),
    fields: [...basic, ...fields.filter((field) => field.advanced)],
  };
}

/** The form's starting state: the server's default format, nothing else set. */
export const initialFormState = (): FormState => ({
  url: '',
  formats: ['markdown'],
  formatOptions: {},
  values: {},
});

const parseJson = (text: string): { value: unknown } | { problem: string } => {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { problem: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
};

/** One field's value for the body: undefined when left at the default or empty. */
function valueOf(
  field: FormField,
  entered: string | boolean | undefined,
): { value?: unknown; problem?: string } {
  if (field.kind === 'boolean') {
    if (typeof entered !== 'boolean') return {};
    const on = entered;
    return on === (field.defaultValue === true) ? {} : { value: on };
  }
  const text = typeof entered === 'string' ? entered.trim() : '';
  if (text === '') return {};
  switch (field.kind) {
    case 'number': {
      const number = Number(text);
      if (!Number.isFinite(number) || (field.integer && !Number.isInteger(number)))
        return { problem: `Enter ${field.integer ? 'a whole number' : 'a number'}.` };
      if ((field.min !== undefined && number < field.min) || (field.max !== undefined && number > field.max))
        return {
          problem:
            field.max === undefined ? `At least ${field.min}.` : `From ${field.min ?? '…'} to ${field.max}.`,
        };
      return { value: number };
    }
    case 'list':
      return {
        value: text
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== ''),
      };
    case 'json': {
      const parsed = parseJson(text);
      if ('problem' in parsed) return parsed;
      const isArray = Array.isArray(parsed.value);
      if (field.jsonType === 'array' && !isArray) return { problem: 'Enter a JSON array: [ … ].' };
      if (field.jsonType === 'object' && !isRecord(parsed.value))
        return { problem: 'Enter a JSON object: { … }.' };
      return { value: parsed.value };
    }
    default:
      return { value: text };
  }
}

/**
 * The request body the form describes: the URL, the formats (a format with options becomes its
 * object form), and only the options that differ from the server's defaults, so the copied code
 * says what the user chose and nothing else. Entries that do not parse are left out and named.
 */
export function buildScrapeRequest(form: ScrapeForm, state: FormState): BuiltRequest {
  const problems: Record<string, string> = {};
  const formats = form.formats
    .filter((format) => state.formats.includes(format.name))
    .map((format): string | Record<string, unknown> => {
      const text = (state.formatOptions[format.name] ?? '').trim();
      if (text === '') return format.name;
      const parsed = parseJson(text);
      if ('problem' in parsed) problems[`format:${format.name}`] = parsed.problem;
      else if (!isRecord(parsed.value)) problems[`format:${format.name}`] = 'Enter a JSON object: { … }.';
      else return { ...parsed.value, type: format.name };
      return format.name;
    });
  const body: BuiltRequest['body'] = { url: state.url.trim(), formats };
  for (const field of form.fields) {
    const { value, problem } = valueOf(field, state.values[field.name]);
    if (problem !== undefined) problems[field.name] = problem;
    else if (value !== undefined) body[field.name] = value;
  }
  return { body, problems };
}

/** A checkbox's state before the user touches it: the server's default. */
export const checkedByDefault = (field: FormField) => field.defaultValue === true;
