import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/platform/config';
import { loadProxyPool, ProxyPoolConfigError, parseProxyPool } from '../../../server/platform/proxy-pool';

const SECRET = 's3cr3t-pa55';

describe('the proxy pool list', () => {
  it('reads PROXY_POOL: comma-separated URLs, each with an optional country', () => {
    const entries = parseProxyPool({
      list: `http://user:${SECRET}@proxy.example:8080 de, socks5://10.0.0.2:1080 ,https://secure.example`,
    });
    expect(entries).toEqual([
      {
        id: 'proxy.example:8080',
        url: `http://user:${SECRET}@proxy.example:8080`,
        protocol: 'http',
        country: 'DE',
      },
      { id: '10.0.0.2:1080', url: 'socks5://10.0.0.2:1080', protocol: 'socks5', country: undefined },
      { id: 'secure.example:443', url: 'https://secure.example', protocol: 'https', country: undefined },
    ]);
  });

  it('reads a file of lines with comments, and a JSON file; a repeated proxy gets its own id', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-pool-'));
    try {
      const lines = path.join(dir, 'proxies.txt');
      await writeFile(lines, '# our proxies\nhttp://a.example:3128 FR # Paris\n\nhttp://a.example:3128 US\n');
      expect(loadProxyPool({ filePath: lines })).toMatchObject([
        { id: 'a.example:3128', country: 'FR' },
        { id: 'a.example:3128#2', country: 'US' },
      ]);
      const json = path.join(dir, 'proxies.json');
      await writeFile(
        json,
        JSON.stringify(['http://b.example:1', { url: 'socks5://c.example:2', country: 'jp' }]),
      );
      expect(loadProxyPool({ list: 'http://d.example:3', filePath: json }).map((entry) => entry.id)).toEqual([
        'd.example:3',
        'b.example:1',
        'c.example:2',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names every bad entry by its place and never quotes it (it may hold a password)', () => {
    let thrown: unknown;
    try {
      parseProxyPool({
        list: `ftp://user:${SECRET}@x.example:21, http://user:${SECRET}@ok.example:1 XX, http://user:${SECRET}@y.example:1/path`,
        file: { path: '/etc/proxies.txt', text: `socks4://user:${SECRET}@z.example:1080\n` },
      });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ProxyPoolConfigError);
    const message = (thrown as Error).message;
    expect(message).toContain('PROXY_POOL item 1: is not a proxy URL');
    expect(message).toContain('PROXY_POOL item 2: has a country that is not an ISO 3166-1 alpha-2 code');
    expect(message).toContain('PROXY_POOL item 3: is not a proxy URL');
    expect(message).toContain('PROXY_POOL_FILE line 1: is not a proxy URL');
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain('example');
  });

  it('says when the file cannot be read or is not JSON it claims to be', async () => {
    expect(() => loadProxyPool({ filePath: '/nonexistent/proxies.txt' })).toThrow(
      'PROXY_POOL_FILE /nonexistent/proxies.txt: cannot be read (ENOENT)',
    );
    expect(() => parseProxyPool({ file: { path: 'p.json', text: '[{"url": 1}]' } })).toThrow(
      'PROXY_POOL_FILE p.json: a JSON array of URLs',
    );
  });

  it('takes its settings from the configuration', () => {
    const config = loadConfig({
      PROXY_POOL: 'http://a.example:1',
      PROXY_POOL_CHECK_TARGET: 'example.com:443',
      PROXY_POOL_CHECK_INTERVAL_SECONDS: '5',
    });
    expect(config.PROXY_POOL_CHECK_TARGET).toEqual({ host: 'example.com', port: 443 });
    expect(config.PROXY_POOL_CHECK_INTERVAL_SECONDS).toBe(5);
    expect(config.PROXY_POOL_STICKY_SECONDS).toBe(600);
    expect(() => loadConfig({ PROXY_POOL_CHECK_TARGET: 'https://example.com' })).toThrow('host:port');
  });
});
