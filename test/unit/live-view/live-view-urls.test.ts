import { describe, expect, it } from 'vitest';
import type { LiveSession } from '../../../server/products/browser-sessions/live-session';
import { liveViewUrls } from '../../../server/products/browser-sessions/live-view-urls';
import { addressFromBar } from '../../../server/products/live-view/viewer-messages';

const session = { id: 'abc-123', liveViewToken: 'watchToken', interactiveToken: 'actToken' } as LiveSession;

describe('liveViewUrls', () => {
  it('gives the relay as a WebSocket and the two pages under the public URL', () => {
    expect(liveViewUrls('http://127.0.0.1:3002', session)).toEqual({
      cdpUrl: 'ws://127.0.0.1:3002/v2/browser/abc-123/cdp',
      liveViewUrl: 'http://127.0.0.1:3002/live/watchToken',
      interactiveLiveViewUrl: 'http://127.0.0.1:3002/live/actToken',
    });
  });

  it('keeps https and a path prefix', () => {
    expect(liveViewUrls('https://scrape.example.com/tabhive/', session)).toEqual({
      cdpUrl: 'wss://scrape.example.com/tabhive/v2/browser/abc-123/cdp',
      liveViewUrl: 'https://scrape.example.com/tabhive/live/watchToken',
      interactiveLiveViewUrl: 'https://scrape.example.com/tabhive/live/actToken',
    });
  });
});

describe("the live view's address bar", () => {
  it('takes web addresses, with https for a bare host', () => {
    expect(addressFromBar(' example.com/login ')).toBe('https://example.com/login');
    expect(addressFromBar('localhost:8080/a')).toBe('https://localhost:8080/a');
    expect(addressFromBar('http://127.0.0.1:3000/')).toBe('http://127.0.0.1:3000/');
  });

  it('refuses other schemes', () => {
    for (const text of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'chrome://settings',
      'ftp://example.com/',
    ]) {
      expect(addressFromBar(text), text).toBeUndefined();
    }
  });
});
