import { describe, expect, it } from 'vitest';
import { donationRefusal } from '../../../shared/donation/donation-refusal';
import { hostAllowed, normalizeDomainList, urlAllowed } from '../../../shared/donation/host-allowed';

describe('donated browser domain rule', () => {
  it('covers a domain and its subdomains, written bare or with *.', () => {
    expect(hostAllowed('example.com', ['example.com'])).toBe(true);
    expect(hostAllowed('members.example.com', ['example.com'])).toBe(true);
    expect(hostAllowed('members.example.com', ['*.example.com'])).toBe(true);
    expect(hostAllowed('EXAMPLE.com.', ['Example.COM'])).toBe(true);
  });

  it('does not cover look-alike hosts or parents', () => {
    expect(hostAllowed('badexample.com', ['example.com'])).toBe(false);
    expect(hostAllowed('example.com.evil.test', ['example.com'])).toBe(false);
    expect(hostAllowed('com', ['example.com'])).toBe(false);
    expect(hostAllowed('example.com', [])).toBe(false);
    expect(hostAllowed('example.com', ['', '*.'])).toBe(false);
  });

  it('reads hosts from URLs, ports and userinfo aside, and refuses what does not parse', () => {
    expect(urlAllowed('http://localhost:8080/members', ['localhost'])).toBe(true);
    expect(urlAllowed('http://example.com@127.0.0.1/', ['example.com'])).toBe(false);
    expect(urlAllowed('http://[::1]/', ['::1'])).toBe(true);
    expect(urlAllowed('not a url', ['example.com'])).toBe(false);
  });

  it('normalises a list for storage and display', () => {
    expect(normalizeDomainList(['*.Example.com', 'example.com', ' wiki.test. ', ''])).toEqual([
      'example.com',
      'wiki.test',
    ]);
  });

  it('refuses paused browsers, foreign domains and scripts the owner did not allow', () => {
    const terms = { enabled: true, allowedDomains: ['example.com'], maxTabs: 2, allowJavascript: false };
    const script = [{ type: 'executeJavascript' as const, script: '1' }];
    expect(donationRefusal(terms, { url: 'https://example.com/' })).toBeUndefined();
    expect(donationRefusal({ ...terms, enabled: false }, { url: 'https://example.com/' })).toMatch(/paused/);
    expect(donationRefusal(terms, { url: 'https://other.test/' })).toMatch(/outside the domains/);
    expect(donationRefusal(terms, { url: 'https://example.com/', actions: script })).toMatch(
      /executeJavascript is not allowed/,
    );
    expect(
      donationRefusal({ ...terms, allowJavascript: true }, { url: 'https://example.com/', actions: script }),
    ).toBeUndefined();
    expect(
      donationRefusal(terms, { url: 'https://example.com/', headers: { COOKIE: 'sid=caller' } }),
    ).toMatch(/Cookie header/);
    expect(
      donationRefusal(terms, { url: 'https://example.com/', headers: { 'X-Hive': '1' } }),
    ).toBeUndefined();
  });
});
