import { describe, expect, it } from 'vitest';
import { mergeExtractions } from '../../../server/products/extract/merge-extractions';

const A = 'https://shop.test/a';
const B = 'https://shop.test/b';
const C = 'https://shop.test/c';

const productSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number' },
    features: { type: 'array', items: { type: 'string' } },
    maker: {
      type: 'object',
      properties: { name: { type: 'string' }, country: { type: 'string' } },
    },
    offers: {
      type: 'array',
      items: { type: 'object', properties: { seller: { type: 'string' }, price: { type: 'number' } } },
    },
  },
  required: ['name', 'price'],
};

describe('the built-in merge of pages’ extractions', () => {
  it('takes a scalar from the first page that states it, and names every page that agrees', () => {
    const merged = mergeExtractions(
      [
        { url: A, value: { price: 12 } },
        { url: B, value: { name: 'Lamp', price: 15 } },
        { url: C, value: { name: 'Lamp', price: 12 } },
      ],
      productSchema,
    );
    expect(merged.value).toEqual({ name: 'Lamp', price: 12 });
    expect(merged.sources).toEqual({ name: [B, C], price: [A, C] });
  });

  it('joins arrays in page order, keeps each item once, and traces items to their pages', () => {
    const merged = mergeExtractions(
      [
        { url: A, value: { features: ['dimmable', 'USB'] } },
        { url: B, value: { features: ['USB', 'warm light'] } },
      ],
      productSchema,
    );
    expect(merged.value).toEqual({ features: ['dimmable', 'USB', 'warm light'] });
    expect(merged.sources).toEqual({
      'features[0]': [A],
      'features[1]': [A, B],
      'features[2]': [B],
    });
  });

  it('keeps an object item once whatever the order of its keys, with sources for each of its fields', () => {
    const merged = mergeExtractions(
      [
        { url: A, value: { offers: [{ seller: 'North', price: 10 }] } },
        {
          url: B,
          value: {
            offers: [
              { price: 10, seller: 'North' },
              { seller: 'South', price: 11 },
            ],
          },
        },
      ],
      productSchema,
    );
    expect(merged.value).toEqual({
      offers: [
        { seller: 'North', price: 10 },
        { seller: 'South', price: 11 },
      ],
    });
    expect(merged.sources['offers[0].seller']).toEqual([A, B]);
    expect(merged.sources['offers[1].price']).toEqual([B]);
  });

  it('merges nested objects field by field', () => {
    const merged = mergeExtractions(
      [
        { url: A, value: { maker: { name: 'Lumen' } } },
        { url: B, value: { maker: { name: 'Other', country: 'SE' } } },
      ],
      productSchema,
    );
    expect(merged.value).toEqual({ maker: { name: 'Lumen', country: 'SE' } });
    expect(merged.sources).toEqual({ 'maker.name': [A], 'maker.country': [B] });
  });

  it('skips empty and blank values and values of the wrong kind, never inventing one', () => {
    const merged = mergeExtractions(
      [
        { url: A, value: { name: '  ', price: null, features: [], maker: 'Lumen' } },
        { url: B, value: { name: 'Lamp', maker: {} } },
      ],
      productSchema,
    );
    expect(merged.value).toEqual({ name: 'Lamp' });
    expect(merged.sources).toEqual({ name: [B] });
  });

  it('answers undefined when no page states anything', () => {
    expect(mergeExtractions([{ url: A, value: {} }], productSchema).value).toBeUndefined();
    expect(mergeExtractions([], productSchema).value).toBeUndefined();
  });

  it('follows $ref and Optional (anyOf with null) as pydantic writes them', () => {
    const schema = {
      $defs: { Maker: { type: 'object', properties: { name: { type: 'string' } } } },
      type: 'object',
      properties: { maker: { anyOf: [{ $ref: '#/$defs/Maker' }, { type: 'null' }] } },
      additionalProperties: false,
    };
    const merged = mergeExtractions(
      [
        { url: A, value: { maker: 'not an object', other: 1 } },
        { url: B, value: { maker: { name: 'Lumen' } } },
      ],
      schema,
    );
    expect(merged.value).toEqual({ maker: { name: 'Lumen' } });
  });

  it('without a schema, merges by the first page’s kinds (published structured data)', () => {
    const merged = mergeExtractions([
      {
        url: A,
        value: { title: 'A', jsonLd: [{ '@type': 'Product', name: 'Lamp' }], openGraph: { 'og:title': 'A' } },
      },
      {
        url: B,
        value: {
          title: 'B',
          jsonLd: [{ name: 'Lamp', '@type': 'Product' }, { '@type': 'Offer' }],
          openGraph: { 'og:image': 'x.png' },
        },
      },
    ]);
    expect(merged.value).toEqual({
      title: 'A',
      jsonLd: [{ '@type': 'Product', name: 'Lamp' }, { '@type': 'Offer' }],
      openGraph: { 'og:title': 'A', 'og:image': 'x.png' },
    });
    expect(merged.sources['jsonLd[0].name']).toEqual([A, B]);
    expect(merged.sources['openGraph["og:image"]']).toEqual([B]);
  });

  it('merges a schema whose root is an array', () => {
    const merged = mergeExtractions(
      [
        { url: A, value: [{ name: 'x' }] },
        { url: B, value: [{ name: 'y' }, { name: 'x' }] },
      ],
      { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
    );
    expect(merged.value).toEqual([{ name: 'x' }, { name: 'y' }]);
    expect(merged.sources).toEqual({ '[0].name': [A, B], '[1].name': [B] });
  });
});
