import { Ajv, type ValidateFunction } from 'ajv';

/** Bounds on a caller's JSON Schema: generous for real extraction schemas, small for a compiler. */
export const MAX_SCHEMA_DEPTH = 32;
export const MAX_SCHEMA_NODES = 5_000;
export const MAX_SCHEMA_CHARS = 64 * 1024;

/**
 * Keywords dropped before compiling. `pattern` and `patternProperties` would make ajv build a
 * JavaScript RegExp from caller text (ReDoS, reliability-security E26); `$schema` names drafts ajv
 * may not carry (2020-12 from newer zod-to-json-schema); `$id` would only matter across schemas.
 */
const DROPPED_KEYWORDS = new Set(['pattern', 'patternProperties', '$schema', '$id', '$data']);

/** A caller schema that is too big, too deep, or not a schema ajv can compile. */
export class SchemaRejectedError extends Error {
  override name = 'SchemaRejectedError';
}

/**
 * Walks the value without recursion (a hostile 10⁵-deep value must not blow the stack) and
 * measures depth, node count and the characters of its keys and strings.
 */
function measure(value: unknown): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  let nodes = 0;
  let chars = 0;
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop() as { value: unknown; depth: number };
    nodes += 1;
    if (depth > MAX_SCHEMA_DEPTH)
      throw new SchemaRejectedError(`schema is nested deeper than ${MAX_SCHEMA_DEPTH}`);
    if (nodes > MAX_SCHEMA_NODES)
      throw new SchemaRejectedError(`schema has more than ${MAX_SCHEMA_NODES} nodes`);
    if (typeof item === 'string') chars += item.length;
    else if (Array.isArray(item)) for (const child of item) stack.push({ value: child, depth: depth + 1 });
    else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        chars += key.length;
        stack.push({ value: child, depth: depth + 1 });
      }
    }
    if (chars > MAX_SCHEMA_CHARS)
      throw new SchemaRejectedError(`schema is larger than ${MAX_SCHEMA_CHARS} characters`);
  }
}

/** A copy without the dropped keywords; recursion is safe once measure() has bounded the depth. */
function sanitize(value: unknown, underProperties = false): unknown {
  if (Array.isArray(value)) return value.map((item) => sanitize(item));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // Under `properties` the keys are the caller's property names, not keywords.
    if (!underProperties && DROPPED_KEYWORDS.has(key)) continue;
    if (key === '__proto__') continue;
    out[key] = sanitize(
      child,
      !underProperties && (key === 'properties' || key === 'definitions' || key === '$defs'),
    );
  }
  return out;
}

const refusingRegExp = Object.assign(
  (): never => {
    throw new SchemaRejectedError('regular expressions in schemas are not supported');
  },
  { code: 'refusingRegExp' },
);

export interface GuardedSchema {
  /** The schema as compiled (what the model is shown). */
  schema: Record<string, unknown> | boolean;
  validate: ValidateFunction;
}

/**
 * Checks and compiles an untrusted JSON Schema. The ajv instance is fresh per schema (no shared
 * `$id` registry between callers), never enables `$data`, loads no remote `$ref`, skips `format`
 * (no caller-controlled regexes), and has a RegExp engine that refuses to run: with patterns
 * dropped above, nothing should reach it.
 */
export function guardSchema(input: unknown): GuardedSchema {
  if (typeof input !== 'boolean' && (input === null || typeof input !== 'object' || Array.isArray(input))) {
    throw new SchemaRejectedError('schema must be a JSON Schema object');
  }
  measure(input);
  const schema = sanitize(input) as Record<string, unknown> | boolean;
  const ajv = new Ajv({
    strict: false,
    $data: false,
    allErrors: true,
    validateFormats: false,
    loopRequired: 200,
    loopEnum: 200,
    code: { regExp: refusingRegExp },
  });
  try {
    return { schema, validate: ajv.compile(schema) };
  } catch (err) {
    throw err instanceof SchemaRejectedError
      ? err
      : new SchemaRejectedError(
          `schema does not compile: ${err instanceof Error ? err.message : String(err)}`,
        );
  }
}

/** ajv's errors as one readable line, for warnings and the model's retry prompt. */
export function describeSchemaErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 10)
    .map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`)
    .join('; ');
}
