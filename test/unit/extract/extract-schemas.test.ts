import { describe, expect, it } from 'vitest';
import { inlineLocalRefs } from '../../../server/products/extract/inline-refs';
import { relaxSchema } from '../../../server/products/extract/relax-schema';
import { guardSchema } from '../../../server/platform/llm/schema-guard';

describe('the per-page schema', () => {
  it('drops completeness demands everywhere, but keeps a property named required', () => {
    const schema = {
      type: 'object',
      properties: {
        required: { type: 'boolean' },
        items: { type: 'array', minItems: 2, items: { type: 'object', required: ['a'] } },
      },
      required: ['required', 'items'],
      $defs: { X: { type: 'object', required: ['b'], minProperties: 1 } },
      default: { required: ['kept as data'] },
    };
    expect(relaxSchema(schema)).toEqual({
      type: 'object',
      properties: {
        required: { type: 'boolean' },
        items: { type: 'array', items: { type: 'object' } },
      },
      $defs: { X: { type: 'object' } },
      default: { required: ['kept as data'] },
    });
  });

  it('lets one page give part of what the full schema requires', () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, price: { type: 'number' } },
      required: ['name', 'price'],
    };
    expect(guardSchema(schema).validate({ name: 'x' })).toBe(false);
    expect(guardSchema(relaxSchema(schema)).validate({ name: 'x' })).toBe(true);
    expect(guardSchema(relaxSchema(schema)).validate({ name: 1 })).toBe(false);
  });
});

describe('inlining local references', () => {
  it('replaces $refs by their definitions, as pydantic nests models', () => {
    const schema = {
      $defs: { Maker: { type: 'object', properties: { name: { type: 'string' } } } },
      type: 'object',
      properties: { maker: { $ref: '#/$defs/Maker', description: 'who makes it' } },
    };
    expect(inlineLocalRefs(schema)).toEqual({
      type: 'object',
      properties: {
        maker: { type: 'object', properties: { name: { type: 'string' } }, description: 'who makes it' },
      },
    });
  });

  it('unrolls a recursive definition a few levels, then leaves it open', () => {
    const schema = {
      $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } },
      $ref: '#/$defs/Node',
    };
    let node = inlineLocalRefs(schema) as Record<string, unknown>;
    let depth = 0;
    while (node.properties !== undefined) {
      node = (node.properties as { child: Record<string, unknown> }).child;
      depth += 1;
    }
    expect(depth).toBe(6);
    expect(node).toEqual({});
  });

  it('gives up on a schema that would grow past the guard’s size', () => {
    const wide = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`p${i}`, { $ref: '#/$defs/Big' }]));
    const big = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`q${i}`, { type: 'string' }]));
    const schema = { $defs: { Big: { type: 'object', properties: big } }, type: 'object', properties: wide };
    expect(inlineLocalRefs(schema)).toBeUndefined();
  });

  it('leaves names that look like keywords alone', () => {
    const schema = { type: 'object', properties: { $ref: { type: 'string' } } };
    expect(inlineLocalRefs(schema)).toEqual(schema);
  });
});
