import { describe, expect, it } from 'vitest';
import { approximateBytes, createBoundedLru } from '../../../server/platform/store/bounded-lru';

describe('the bounded LRU', () => {
  it('drops the least recently used entry beyond its entry count', () => {
    const lru = createBoundedLru<string, number>({ maxEntries: 2, maxBytes: 1_000 });
    lru.set('a', 1, 1);
    lru.set('b', 2, 1);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3, 1);
    expect(lru.peek('b')).toBeUndefined();
    expect([lru.peek('a'), lru.peek('c')]).toEqual([1, 3]);
    expect(lru.size).toBe(2);
  });

  it('drops the least recently used entries beyond its bytes, and refuses one that takes over a quarter', () => {
    const lru = createBoundedLru<string, string>({ maxEntries: 100, maxBytes: 100 });
    expect(lru.set('big', 'x', 26)).toBe(false);
    expect(lru.peek('big')).toBeUndefined();
    for (const key of ['a', 'b', 'c', 'd']) lru.set(key, key, 25);
    expect(lru.bytes).toBe(100);
    lru.get('a');
    lru.set('e', 'e', 20);
    expect(lru.peek('b')).toBeUndefined();
    expect(lru.peek('a')).toBe('a');
    expect(lru.bytes).toBe(95);
  });

  it('replaces a key in place, with its new size', () => {
    const lru = createBoundedLru<string, string>({ maxEntries: 10, maxBytes: 100 });
    lru.set('a', 'one', 10);
    lru.set('a', 'two', 20);
    expect(lru.peek('a')).toBe('two');
    expect([lru.size, lru.bytes]).toEqual([1, 20]);
    expect(lru.set('a', 'huge', 60)).toBe(false);
    expect([lru.size, lru.bytes]).toEqual([0, 0]);
  });

  it('deletes what a predicate picks', () => {
    const lru = createBoundedLru<string, number>({ maxEntries: 10, maxBytes: 100 });
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      lru.set(key, value, 5);
    expect(lru.deleteWhere((value) => value % 2 === 1)).toBe(2);
    expect([lru.peek('b'), lru.size, lru.bytes]).toEqual([2, 1, 5]);
  });
});

describe('approximateBytes', () => {
  it('counts two bytes per string character, nested', () => {
    const text = 'x'.repeat(1_000);
    expect(approximateBytes(text)).toBe(2_000);
    const bytes = approximateBytes({ markdown: text, links: [text, text], when: new Date() });
    expect(bytes).toBeGreaterThan(6_000);
    expect(bytes).toBeLessThan(6_300);
  });
});
