import { describe, expect, it } from 'vitest';
import { readAllowedDomains } from '../../../extension/ui/allowed-domains-input';

describe('the allowed-domains box', () => {
  it('takes one host per line, or comma-separated, lower-cased and without repeats', () => {
    expect(readAllowedDomains('Example.com\n *.docs.example.org, hive.test ,hive.test\r\n\n')).toEqual({
      domains: ['example.com', '*.docs.example.org', 'hive.test'],
      invalid: [],
    });
  });

  it('reads a pasted URL as its host', () => {
    expect(readAllowedDomains('https://www.example.com/path?q=1\nhttp://127.0.0.1:8080/')).toEqual({
      domains: ['www.example.com', '127.0.0.1'],
      invalid: [],
    });
  });

  it('accepts single-label hosts, IPv4 addresses and international names', () => {
    expect(readAllowedDomains('localhost\n10.0.0.7\nbücher.de').domains).toEqual([
      'localhost',
      '10.0.0.7',
      'bücher.de',
    ]);
  });

  it('returns what is not a host name for the page to point out', () => {
    expect(
      readAllowedDomains('good.test\nbad_domain!\n-lead.test\n*.\nexample.com/path\nnot a domain'),
    ).toEqual({
      domains: ['good.test'],
      invalid: ['bad_domain!', '-lead.test', '*.', 'example.com/path', 'not a domain'],
    });
  });
});
