import { describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH, UrlInput } from '../../../shared/api/url-input';

function messageFor(input: unknown): string | undefined {
  const result = UrlInput.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('UrlInput', () => {
  it('prepends http:// when the scheme is missing and keeps the raw string', () => {
    expect(UrlInput.parse('example.com')).toEqual({ raw: 'example.com', url: 'http://example.com/' });
  });

  it('keeps query, fragment and path of the raw string as sent', () => {
    const raw = 'https://www.example.com/a/b?pagewanted=all&et_blog#top';
    expect(UrlInput.parse(raw)).toEqual({ raw, url: raw });
  });

  it('normalises case and IDN hosts in url but not in raw', () => {
    expect(UrlInput.parse('HTTPS://Example.COM')).toEqual({
      raw: 'HTTPS://Example.COM',
      url: 'https://example.com/',
    });
    expect(UrlInput.parse('http://münchen.de/').url).toBe('http://xn--mnchen-3ya.de/');
  });

  it('ignores surrounding whitespace when normalising', () => {
    expect(UrlInput.parse('  example.com/x \n')).toEqual({
      raw: '  example.com/x \n',
      url: 'http://example.com/x',
    });
  });

  it.each([
    ['localhost:3000/docs', 'http://localhost:3000/docs'],
    ['http://localhost:3000/', 'http://localhost:3000/'],
    ['127.0.0.1:8080/page', 'http://127.0.0.1:8080/page'],
    ['http://[::1]:8080/', 'http://[::1]:8080/'],
    ['http://example', 'http://example/'],
    ['http://fixtures.test:8080/x.html', 'http://fixtures.test:8080/x.html'],
  ])('accepts %s without TLD or colon checks', (input, url) => {
    expect(UrlInput.parse(input).url).toBe(url);
  });

  it.each([
    ['ftp://x.com', 'URL uses unsupported protocol'],
    ['file:///etc/passwd', 'URL uses unsupported protocol'],
    ['javascript://x.com', 'URL uses unsupported protocol'],
    ['http://ex ample.com/', 'Invalid url'],
    ['', 'Invalid url'],
    ['http://', 'Invalid url'],
    ['http://http://x.com', 'Invalid URL'],
    ['https://http://x.com/', 'Invalid URL'],
    ['http:/x.com', 'Invalid URL'],
  ])('rejects %j with "%s"', (input, message) => {
    expect(messageFor(input)).toBe(message);
  });

  it('rejects user names and passwords, including a scheme-less mailto:', () => {
    const message = 'URL must not contain a user name or password; send credentials in headers';
    expect(messageFor('http://a@b.com/')).toBe(message);
    expect(messageFor('https://user:secret@example.com/')).toBe(message);
    expect(messageFor('mailto:someone@example.com')).toBe(message);
  });

  it('rejects hosts with empty labels, such as one a zero-width space leaves behind', () => {
    expect(messageFor('http://\u200b.test/')).toBe('URL must have a valid host');
    expect(messageFor('http://a..b.test/')).toBe('URL must have a valid host');
    expect(UrlInput.parse('http://localhost./').url).toBe('http://localhost./');
  });

  it('caps the length of the raw string', () => {
    const prefix = 'http://example.com/';
    expect(UrlInput.safeParse(prefix + 'a'.repeat(MAX_URL_LENGTH - prefix.length)).success).toBe(true);
    expect(messageFor(prefix + 'a'.repeat(MAX_URL_LENGTH - prefix.length + 1))).toBe(
      'URL must be at most 8192 characters',
    );
  });

  it('rejects anything but a string', () => {
    expect(UrlInput.safeParse(undefined).success).toBe(false);
    expect(UrlInput.safeParse(42).success).toBe(false);
  });
});
