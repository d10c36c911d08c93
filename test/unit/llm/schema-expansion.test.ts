import { describe, expect, it } from 'vitest';
import { askForJson } from '../../../server/platform/llm/ask-for-json';
import { LlmError, type LlmProvider } from '../../../server/platform/llm/llm-provider';
import { MAX_SAME_VALUE_CHECKS, schemaExpansionProblem } from '../../../server/platform/llm/schema-expansion';
import {
  SchemaRejectedError,
  describeSchemaErrors,
  guardSchema,
} from '../../../server/platform/llm/schema-guard';

/** `levels` definitions, each an allOf of `fanOut` references to the next. */
function multiplying(levels: number, fanOut = 2) {
  const definitions: Record<string, unknown> = { [`d${levels}`]: { type: 'object' } };
  for (let i = 0; i < levels; i++) {
    definitions[`d${i}`] = {
      allOf: Array.from({ length: fanOut }, () => ({ $ref: `#/definitions/d${i + 1}` })),
    };
  }
  return { definitions, $ref: '#/definitions/d0' };
}

/** A value nested `depth` levels deep under `child`. */
function deepValue(depth: number): unknown {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) value = { child: value };
  return value;
}

const TREE = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    child: { $ref: '#' },
    items: { type: 'array', items: { $ref: '#' } },
  },
};

describe('schemaExpansionProblem', () => {
  it.each([
    ['the root referring to itself', { $ref: '#' }],
    [
      'two definitions naming each other',
      { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' },
    ],
    ['an allOf holding its own schema', { type: 'object', allOf: [{ $ref: '#' }] }],
    ['a loop behind anyOf', { anyOf: [{ type: 'string' }, { $ref: '#' }] }],
    ['a loop behind if/then', { if: { type: 'number' }, then: { $ref: '#' } }],
    [
      'a loop behind not',
      { definitions: { a: { not: { $ref: '#/definitions/a' } } }, $ref: '#/definitions/a' },
    ],
    ['a loop in a property', { properties: { x: { $ref: '#/properties/x' } } }],
    ['a loop through dependentSchemas', { dependentSchemas: { a: { $ref: '#' } } }],
    [
      'a pointer with escaped characters',
      { definitions: { 'a/b~c': { $ref: '#/definitions/a~1b~0c' } }, $ref: '#/definitions/a~1b~0c' },
    ],
    [
      'a percent-encoded pointer',
      { definitions: { 'a b': { $ref: '#/definitions/a%20b' } }, $ref: '#/definitions/a%20b' },
    ],
  ])('refuses %s', (_name, schema) => {
    expect(schemaExpansionProblem(schema)).toMatch(/refers back to itself/);
    expect(() => guardSchema(schema)).toThrow(SchemaRejectedError);
  });

  it('refuses references that multiply past the bound, and accepts them below it', () => {
    expect(schemaExpansionProblem(multiplying(30))).toMatch(`more than ${MAX_SAME_VALUE_CHECKS} schemas`);
    expect(() => guardSchema(multiplying(30))).toThrow(SchemaRejectedError);
    expect(schemaExpansionProblem(multiplying(8))).toBeUndefined();
  });

  it('accepts recursion that moves on to part of the value, and shared definitions', () => {
    expect(schemaExpansionProblem(TREE)).toBeUndefined();
    expect(
      schemaExpansionProblem({
        definitions: { price: { type: 'number', minimum: 0 } },
        properties: Object.fromEntries(
          Array.from({ length: 50 }, (_, i) => [`p${i}`, { $ref: '#/definitions/price' }]),
        ),
        propertyNames: { $ref: '#/definitions/name' },
      }),
    ).toBeUndefined();
    expect(schemaExpansionProblem({ anyOf: [{ type: 'string' }, { type: 'number' }] })).toBeUndefined();
    expect(schemaExpansionProblem(true)).toBeUndefined();
  });
});

describe('validating a value nested deeper than the stack goes', () => {
  it('fails the value with a readable error instead of throwing', () => {
    const { validate } = guardSchema(TREE);
    expect(validate(deepValue(3))).toBe(true);
    expect(validate(deepValue(200_000))).toBe(false);
    expect(describeSchemaErrors(validate)).toBe('/ is nested too deeply to check');
    // The validator still works, with ajv's own errors, after that.
    expect(validate({ name: 3 })).toBe(false);
    expect(describeSchemaErrors(validate)).toContain('/name must be string');
  });

  it('makes a model that answers with such a value an LLM error, not a crash', async () => {
    const answer = `${'{"child":'.repeat(200_000)}{}${'}'.repeat(200_000)}`;
    expect(JSON.parse(answer)).toBeTypeOf('object');
    const llm: LlmProvider = { model: 'fake', complete: async () => answer };
    const schema = guardSchema(TREE);
    const asked = askForJson(llm, { content: 'page', schema });
    await expect(asked).rejects.toBeInstanceOf(LlmError);
    await expect(asked).rejects.toThrow(/nested too deeply to check/);
  });
});
