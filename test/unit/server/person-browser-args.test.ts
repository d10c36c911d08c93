import { describe, expect, it } from 'vitest';
import { chromeArgs } from '../../../server/browsers/launcher/chrome-args';
import {
  desktopChromeUserAgent,
  type LaunchDisplay,
} from '../../../server/browsers/launcher/person-browser-args';
import { xauthorityEntry } from '../../../server/browsers/launcher/virtual-display';

const argsFor = (display: LaunchDisplay) =>
  chromeArgs({
    profileDir: '/p',
    extensionDir: '/e',
    startUrl: 'chrome-extension://x/launch.html',
    runningAsRoot: false,
    display,
  });

describe('a launched browser on the virtual display', () => {
  it('runs headful with WebGL on the host software GL, composited in software, no user agent of its own', () => {
    const args = argsFor({ kind: 'virtual' });
    expect(args).not.toContain('--headless');
    expect(args).not.toContain('--disable-gpu');
    expect(args).toEqual(
      expect.arrayContaining([
        '--disable-gpu-compositing',
        '--ignore-gpu-blocklist',
        '--use-gl=angle',
        '--use-angle=gl',
      ]),
    );
    expect(args).toContain('--window-size=1920,1080');
    expect(args.some((arg) => arg.startsWith('--user-agent'))).toBe(false);
    expect(args.some((arg) => arg.startsWith('--screen-info'))).toBe(false);
  });
});

describe('a launched browser that runs headless', () => {
  it('keeps its headless switches and says Chrome in its user agent', () => {
    const userAgent = desktopChromeUserAgent('156.0.8078.108', 'linux');
    const args = argsFor({ kind: 'headless', userAgent });
    expect(args).toEqual(
      expect.arrayContaining(['--headless', '--disable-gpu', '--screen-info={1920x1080}']),
    );
    expect(args).toContain(`--user-agent=${userAgent}`);
  });
});

describe("a person's desktop Chrome user agent", () => {
  it("is Chrome's reduced form for the binary's major version on each system", () => {
    expect(desktopChromeUserAgent('156.0.8078.108', 'linux')).toBe(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    );
    expect(desktopChromeUserAgent('131.0.6778.85', 'darwin')).toContain(
      '(Macintosh; Intel Mac OS X 10_15_7)',
    );
    expect(desktopChromeUserAgent('131.0.6778.85', 'win32')).toContain('(Windows NT 10.0; Win64; x64)');
    expect(() => desktopChromeUserAgent('Chromium', 'linux')).toThrow(/not a Chromium version/);
  });
});

describe('the virtual display cookie', () => {
  it('is one MIT-MAGIC-COOKIE-1 entry for any address and display', () => {
    const cookie = Buffer.alloc(16, 7);
    const entry = xauthorityEntry(cookie);
    const name = Buffer.from('MIT-MAGIC-COOKIE-1');
    expect(entry.readUInt16BE(0)).toBe(0xffff);
    expect(entry.readUInt16BE(2)).toBe(0);
    expect(entry.readUInt16BE(4)).toBe(0);
    expect(entry.readUInt16BE(6)).toBe(name.length);
    expect(entry.subarray(8, 8 + name.length)).toEqual(name);
    expect(entry.readUInt16BE(8 + name.length)).toBe(16);
    expect(entry.subarray(10 + name.length)).toEqual(cookie);
  });
});
