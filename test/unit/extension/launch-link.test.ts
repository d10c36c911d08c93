import { describe, expect, it } from 'vitest';
import { parseLaunchLink } from '../../../extension/utils/launch-link';

const origin = 'chrome-extension://bldifnpkbmhobfpmiihpcelogikpcdbl';

describe('launch links', () => {
  it('reads the hub URL and token from the fragment', () => {
    const url = `${origin}/launch.html#${new URLSearchParams({ server: 'ws://127.0.0.1:3002/browser-hub', token: 'a+b/c=' })}`;
    expect(parseLaunchLink(url, origin)).toEqual({
      serverUrl: 'ws://127.0.0.1:3002/browser-hub',
      token: 'a+b/c=',
    });
  });

  it('reads the browser class of stealth browsers, and ignores unknown classes', () => {
    const link = (extra: Record<string, string>) =>
      `${origin}/launch.html#${new URLSearchParams({ server: 'ws://h/browser-hub', token: 't', ...extra })}`;
    expect(parseLaunchLink(link({ class: 'stealth' }), origin)?.browserClass).toBe('stealth');
    expect(parseLaunchLink(link({ class: 'turbo' }), origin)).toEqual({
      serverUrl: 'ws://h/browser-hub',
      token: 't',
    });
  });

  it('ignores other pages, other extensions and incomplete links', () => {
    expect(parseLaunchLink(undefined, origin)).toBeUndefined();
    expect(parseLaunchLink('https://example.com/launch.html#server=ws://x&token=t', origin)).toBeUndefined();
    expect(
      parseLaunchLink('chrome-extension://other/launch.html#server=ws://x&token=t', origin),
    ).toBeUndefined();
    expect(parseLaunchLink(`${origin}/launch.html#server=ws://x`, origin)).toBeUndefined();
    expect(parseLaunchLink(`${origin}/launch.html#server=&token=t`, origin)).toBeUndefined();
    expect(parseLaunchLink(`${origin}/launch.html`, origin)).toBeUndefined();
  });
});
