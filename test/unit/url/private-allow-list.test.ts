import { describe, expect, it } from 'vitest';
import { refuseAddress, refuseHost } from '../../../shared/url/network-policy';
import { allowsAddress, allowsName, parsePrivateAllowList } from '../../../shared/url/private-allow-list';

const list = parsePrivateAllowList([
  'intranet.example.com',
  'Wiki.Corp.',
  '10.1.2.3',
  '192.168.0.0/16',
  '[fd12::5]',
  'fd34::/64',
  '169.254.0.0/16',
]);
const strict = { allowPrivateNetworks: false };

describe('the private allow list (ALLOWED_PRIVATE_HOSTS)', () => {
  it('reads names, addresses and ranges, and refuses anything else', () => {
    expect(list.names).toEqual(['intranet.example.com', 'wiki.corp']);
    expect(list.ranges).toHaveLength(5);
    for (const bad of ['10.0.0.0/33', 'http://x', '10.1', 'a..b', '::ffff:zz', 'under score!']) {
      expect(() => parsePrivateAllowList([bad]), bad).toThrow(/not a host name/);
    }
  });

  it('allows a listed name and its subdomains, and nothing that merely ends the same', () => {
    expect(allowsName(list, 'intranet.example.com')).toBe(true);
    expect(allowsName(list, 'a.b.intranet.example.com.')).toBe(true);
    expect(allowsName(list, 'WIKI.corp')).toBe(true);
    expect(allowsName(list, 'evilintranet.example.com')).toBe(false);
    expect(allowsName(list, 'example.com')).toBe(false);
  });

  it('allows addresses inside listed ranges only, in any spelling', () => {
    expect(allowsAddress(list, '10.1.2.3')).toBe(true);
    expect(allowsAddress(list, '::ffff:10.1.2.3')).toBe(true);
    expect(allowsAddress(list, '10.1.2.4')).toBe(false);
    expect(allowsAddress(list, '192.168.77.1')).toBe(true);
    expect(allowsAddress(list, '192.169.0.1')).toBe(false);
    expect(allowsAddress(list, 'fd12::5')).toBe(true);
    expect(allowsAddress(list, 'fd12::6')).toBe(false);
    expect(allowsAddress(list, 'fd34::abcd')).toBe(true);
    expect(allowsAddress(list, '127.0.0.1')).toBe(false);
  });

  it('never allows a metadata endpoint, even inside a listed range', () => {
    expect(allowsAddress(list, '169.254.1.1')).toBe(true);
    expect(allowsAddress(list, '169.254.169.254')).toBe(false);
    expect(refuseAddress(strict, list, '169.254.169.254', 'intranet.example.com')).toBe('metadata');
    expect(refuseAddress({ allowPrivateNetworks: true }, list, '169.254.170.2', 'x.example')).toBe(
      'metadata',
    );
  });

  it('judges resolved addresses by the range, or by the name that was asked for', () => {
    expect(refuseAddress(strict, list, '10.9.9.9', 'intranet.example.com')).toBeUndefined();
    expect(refuseAddress(strict, list, '10.9.9.9', 'other.example.com')).toBe('private-network');
    expect(refuseAddress(strict, list, '192.168.1.1', 'other.example.com')).toBeUndefined();
    expect(refuseAddress(strict, list, '93.184.215.14', 'other.example.com')).toBeUndefined();
    expect(refuseAddress(strict, list, 'not-an-ip', 'other.example.com')).toBe('invalid');
  });

  it('judges hosts before DNS: literals and local names now, other names later', () => {
    const judge = (url: string) => refuseHost(strict, list, new URL(url));
    expect(judge('http://192.168.4.4/')).toBeUndefined();
    expect(judge('http://0xc0a80404/')).toBeUndefined();
    expect(judge('http://172.16.0.1/')).toBe('private-network');
    expect(judge('http://[fd12::5]/')).toBeUndefined();
    expect(judge('http://localhost/')).toBe('private-network');
    expect(judge('http://wiki.corp/')).toBe('needs-dns');
    expect(refuseAddress(strict, list, '10.9.9.9', 'docs.wiki.corp')).toBeUndefined();
    expect(judge('http://metadata.google.internal/')).toBe('metadata');
    expect(judge('http://example.com/')).toBe('needs-dns');
    expect(refuseHost({ allowPrivateNetworks: true }, list, new URL('http://localhost/'))).toBeUndefined();
  });
});
