import { describe, expect, it } from 'vitest';
import { storageKeysOf } from '../../../extension/browser-state/storage-keys-of';

describe('storage keys of a document (for the wipe of Storage Buckets)', () => {
  it('gives a top-level page its origin’s key', () => {
    expect(storageKeysOf('http://127.0.0.1:3000/a?b', 'http://127.0.0.1:3000/a?b')).toEqual([
      'http://127.0.0.1:3000/',
    ]);
  });

  it('gives a frame of another site its own key and its partitioned keys under each candidate site', () => {
    expect(storageKeysOf('http://localhost:4000/frame', 'http://127.0.0.1:3000/')).toEqual([
      'http://localhost:4000/',
      'http://localhost:4000/^0http://127.0.0.1',
    ]);
    expect(storageKeysOf('https://ads.test/x', 'https://www.shop.example.co.uk:8443/')).toEqual([
      'https://ads.test/',
      'https://ads.test/^0https://www.shop.example.co.uk',
      'https://ads.test/^0https://shop.example.co.uk',
      'https://ads.test/^0https://example.co.uk',
      'https://ads.test/^0https://co.uk',
    ]);
  });

  it('reads blob: URLs as their origin, and skips documents that hold no storage', () => {
    expect(storageKeysOf('blob:https://a.test/123', 'https://a.test/')).toEqual(['https://a.test/']);
    expect(storageKeysOf('about:blank', 'https://a.test/')).toEqual([]);
    expect(storageKeysOf('data:text/html,x', undefined)).toEqual([]);
    expect(storageKeysOf('chrome-extension://abc/launch.html', undefined)).toEqual([]);
  });
});
