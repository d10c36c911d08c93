import { describe, expect, it } from 'vitest';
import {
  MAX_SCHEMA_DEPTH,
  SchemaRejectedError,
  describeSchemaErrors,
  guardSchema,
} from '../../../server/platform/llm/schema-guard';

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('guardSchema', () => {
  it('compiles an ordinary schema, including what zod-to-json-schema adds', () => {
    const { validate } = guardSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { name: { type: 'string' }, price: { type: 'number' } },
      required: ['name'],
      additionalProperties: false,
    });
    expect(validate({ name: 'Mug', price: 4 })).toBe(true);
    expect(validate({ price: 4 })).toBe(false);
    expect(describeSchemaErrors(validate)).toContain("must have required property 'name'");
  });

  it('accepts a 2020-12 $schema by leaving the draft marker out', () => {
    expect(
      guardSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' }).validate({}),
    ).toBe(true);
  });

  it('refuses schemas that are too deep, too large, or not schemas', () => {
    expect(() => guardSchema(nested(MAX_SCHEMA_DEPTH))).toThrow(SchemaRejectedError);
    expect(() => guardSchema(nested(100_000))).toThrow(/deeper than/);
    expect(() => guardSchema({ enum: [Array.from({ length: 70_000 }, () => 'x').join('')] })).toThrow(
      /larger than/,
    );
    expect(() => guardSchema([1, 2])).toThrow(/JSON Schema object/);
    expect(() => guardSchema({ type: 'no-such-type' })).toThrow(/does not compile/);
  });

  it('runs patterns on RE2, in linear time, and refuses what RE2 cannot do', () => {
    const { validate } = guardSchema({
      type: 'object',
      properties: { code: { type: 'string', pattern: '^(a+)+$' } },
      patternProperties: { '^x-': { type: 'number' } },
    });
    const started = performance.now();
    expect(validate({ code: `${'a'.repeat(100_000)}!` })).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(validate({ code: 'aaaa', 'x-size': 3 })).toBe(true);
    expect(validate({ code: 'aaaa', 'x-size': 'big' })).toBe(false);
    expect(() => guardSchema({ type: 'string', pattern: '(?=a)b' })).toThrow(/not supported \(RE2 syntax\)/);
    expect(() => guardSchema({ type: 'string', pattern: '(a)\\1' })).toThrow(SchemaRejectedError);
  });

  it('keeps property names that look like keywords, and ignores $data', () => {
    const { validate } = guardSchema({
      type: 'object',
      properties: { pattern: { type: 'string' }, $schema: { type: 'string' } },
      required: ['pattern'],
    });
    expect(validate({ pattern: 'stripes' })).toBe(true);
    expect(validate({})).toBe(false);
    expect(guardSchema({ type: 'object', properties: { a: { const: { $data: '1/b' } } } }).schema).toEqual({
      type: 'object',
      properties: { a: { const: {} } },
    });
  });

  it('does not fetch remote references', () => {
    expect(() => guardSchema({ $ref: 'http://127.0.0.1:1/schema.json' })).toThrow(SchemaRejectedError);
  });
});
