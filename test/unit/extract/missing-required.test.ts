import { describe, expect, it } from 'vitest';
import { missingRequired } from '../../../server/products/extract/missing-required';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    address: {
      type: 'object',
      properties: { city: { type: 'string' }, zip: { type: 'string' } },
      required: ['city', 'zip'],
    },
    contact: {
      type: 'object',
      properties: { email: { type: 'string' } },
      required: ['email'],
    },
    products: {
      type: 'array',
      items: {
        type: 'object',
        properties: { title: { type: 'string' }, price: { type: 'number' } },
        required: ['title', 'price'],
      },
    },
  },
  required: ['name', 'address', 'products'],
};

describe('required fields left empty', () => {
  it('names top-level, nested and per-item fields by path', () => {
    expect(
      missingRequired(schema, {
        name: 'Acme',
        address: { city: 'Lund' },
        products: [{ title: 'A', price: 1 }, { title: 'B' }, { price: 3 }],
      }),
    ).toEqual(['address.zip', 'products[].price', 'products[].title']);
  });

  it('names a missing required object once, and does not look into absent optional ones', () => {
    expect(missingRequired(schema, { products: [] })).toEqual(['name', 'address', 'products']);
  });

  it('counts blank strings and null as empty', () => {
    expect(missingRequired(schema, { name: ' ', address: { city: null, zip: '1' }, products: [{}] })).toEqual(
      ['name', 'address.city', 'products[].title', 'products[].price'],
    );
  });

  it('names every root requirement when nothing was found', () => {
    expect(missingRequired(schema, {})).toEqual(['name', 'address', 'products']);
  });

  it('follows $ref and Optional models', () => {
    const pydantic = {
      $defs: {
        Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
      type: 'object',
      properties: { address: { anyOf: [{ $ref: '#/$defs/Address' }, { type: 'null' }] } },
      required: ['address'],
    };
    expect(missingRequired(pydantic, { address: {} })).toEqual(['address']);
    expect(missingRequired(pydantic, { address: { zip: '1' } })).toEqual(['address.city']);
    expect(missingRequired(pydantic, { address: { city: 'Lund' } })).toEqual([]);
  });

  it('quotes keys that are not plain names', () => {
    expect(
      missingRequired({ type: 'object', properties: {}, required: ['first name'] }, { other: 1 }),
    ).toEqual(['["first name"]']);
  });
});
