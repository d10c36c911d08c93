import { describe, expect, it } from 'vitest';
import { attributeSources } from '../../../server/products/extract/value-sources';

const A = 'https://site.test/a';
const B = 'https://site.test/b';

const pages = [
  { url: A, value: { name: 'Acme Lamp', price: 12, tags: ['desk'] } },
  { url: B, value: { name: 'Acme lamp ', tags: ['desk', 'LED'], maker: { country: 'SE' } } },
];

describe('sources of data a model merged', () => {
  it('traces each scalar to the pages whose extraction states it, ignoring case and spacing', () => {
    const { value, sources, invented } = attributeSources(
      { name: 'Acme Lamp', price: 12, tags: ['desk', 'LED'], maker: { country: 'SE' } },
      pages,
    );
    expect(value).toEqual({ name: 'Acme Lamp', price: 12, tags: ['desk', 'LED'], maker: { country: 'SE' } });
    expect(invented).toEqual([]);
    expect(sources).toEqual({
      name: [A, B],
      price: [A],
      'tags[0]': [A, B],
      'tags[1]': [B],
      'maker.country': [B],
    });
  });

  it('prefers pages that state the value at the same field, then anywhere on the page', () => {
    const { sources } = attributeSources({ origin: 'SE', label: 'desk' }, [
      { url: A, value: { label: 'desk' } },
      { url: B, value: { maker: { country: 'SE' }, tags: ['desk'] } },
    ]);
    expect(sources).toEqual({ origin: [B], label: [A] });
  });

  it('leaves out what no page stated, and says where', () => {
    const { value, sources, invented } = attributeSources(
      { name: 'Acme Lamp', price: 99, tags: ['desk', 'cheap'], maker: { country: 'FR' } },
      pages,
    );
    expect(value).toEqual({ name: 'Acme Lamp', tags: ['desk'] });
    expect(invented).toEqual(['price', 'tags[1]', 'maker.country']);
    expect(Object.keys(sources)).toEqual(['name', 'tags[0]']);
  });

  it('renumbers array items after one was left out', () => {
    const { value, sources } = attributeSources({ tags: ['made up', 'LED'] }, pages);
    expect(value).toEqual({ tags: ['LED'] });
    expect(sources).toEqual({ 'tags[0]': [B] });
  });
});
