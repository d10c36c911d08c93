import { describe, expect, it } from 'vitest';
import { chromeArgs } from '../../../server/browsers/launcher/chrome-args';
import { ConfigError, loadConfig } from '../../../server/platform/config';

describe('stealth browsers', () => {
  it('reads a proxy URL and refuses credentials and other schemes', () => {
    expect(loadConfig({ STEALTH_PROXY_URL: 'socks5://10.0.0.2:1080' }).STEALTH_PROXY_URL).toBe(
      'socks5://10.0.0.2:1080',
    );
    expect(() => loadConfig({ STEALTH_PROXY_URL: 'http://user:pw@proxy:8080' })).toThrow(ConfigError);
    expect(() => loadConfig({ STEALTH_PROXY_URL: 'ftp://proxy:21' })).toThrow(ConfigError);
  });

  it('launches with the proxy for everything but the hub', () => {
    const args = chromeArgs({
      profileDir: '/p',
      extensionDir: '/e',
      startUrl: 'chrome-extension://x/launch.html',
      runningAsRoot: false,
      proxy: { server: 'http://10.0.0.2:3128', hubHost: '127.0.0.1:3002' },
    });
    expect(args).toContain('--proxy-server=http://10.0.0.2:3128');
    expect(args).toContain('--proxy-bypass-list=<-loopback>;127.0.0.1:3002');
    expect(args.at(-1)).toBe('chrome-extension://x/launch.html');
  });
});
