import { Ajv, type ValidateFunction } from 'ajv';
import { RE2JS } from 're2js';
import { schemaExpansionProblem } from './schema-expansion';

/** Bounds on a caller's JSON Schema: generous for real extraction schemas, small for a compiler. */
export const MAX_SCHEMA_DEPTH = 32;
export const MAX_SCHEMA_NODES = 5_000;
export const MAX_SCHEMA_CHARS = 64 * 1024;

/**
 * Keywords dropped before compiling: `$schema` names drafts ajv may not carry (2020-12 from newer
 * zod-to-json-schema); `$id` would only matter across schemas; `$data` is never honoured.
 */
const DROPPED_KEYWORDS = new Set(['$schema', '$id', '$data']);

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

/**
 * `pattern` and `patternProperties` are caller regexes: they run on RE2 (re2js), in linear time,
 * never as a JavaScript RegExp (ReDoS, docs/security.md#caller-patterns). RE2 has no lookaround or
 * backreferences; such a pattern is refused rather than silently dropped.
 */
const re2RegExp = Object.assign(
  (pattern: string): { test(input: string): boolean; toString(): string } => {
    try {
      const compiled = RE2JS.compile(pattern);
      // ajv shares compiled patterns by their toString(), so it must differ per pattern.
      return { test: (input) => compiled.test(input), toString: () => `re2:${pattern}` };
    } catch (err) {
      throw new SchemaRejectedError(
        `pattern ${JSON.stringify(pattern.slice(0, 100))} is not supported (RE2 syntax): ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  },
  { code: 're2RegExp' },
);

export interface GuardedSchema {
  /** The schema as compiled (what the model is shown). */
  schema: Record<string, unknown> | boolean;
  /** Never throws: a value nested too deeply to check fails, with an error that says so. */
  validate: ValidateFunction;
}

/**
 * ajv's validator, made to answer false instead of throwing when checking a value overflows the
 * stack: a schema that recurses through `properties` follows the value down, and a model's answer
 * may nest as deeply as it likes.
 */
function stackSafe(validate: ValidateFunction): ValidateFunction {
  const safe = Object.assign(
    (data: unknown) => {
      try {
        const valid = validate(data);
        safe.errors = validate.errors;
        return valid;
      } catch (err) {
        if (!(err instanceof RangeError)) throw err;
        safe.errors = [
          {
            instancePath: '',
            schemaPath: '#',
            keyword: 'depth',
            params: {},
            message: 'is nested too deeply to check',
          },
        ];
        return false;
      }
    },
    { schema: validate.schema, schemaEnv: validate.schemaEnv },
  ) as ValidateFunction;
  return safe;
}

/**
 * Checks and compiles an untrusted JSON Schema. The ajv instance is fresh per schema (no shared
 * `$id` registry between callers), never enables `$data`, loads no remote `$ref`, skips `format`
 * (unbounded validators), and runs `pattern` on RE2. Schemas that loop on one value or multiply
 * their work (schemaExpansionProblem) are refused before ajv sees them.
 */
export function guardSchema(input: unknown): GuardedSchema {
  if (typeof input !== 'boolean' && (input === null || typeof input !== 'object' || Array.isArray(input))) {
    throw new SchemaRejectedError('schema must be a JSON Schema object');
  }
  measure(input);
  const schema = sanitize(input) as Record<string, unknown> | boolean;
  const problem = schemaExpansionProblem(schema);
  if (problem !== undefined) throw new SchemaRejectedError(problem);
  const ajv = new Ajv({
    strict: false,
    $data: false,
    allErrors: true,
    validateFormats: false,
    loopRequired: 200,
    loopEnum: 200,
    code: { regExp: re2RegExp },
  });
  try {
    return { schema, validate: stackSafe(ajv.compile(schema)) };
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
