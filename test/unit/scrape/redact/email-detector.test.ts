import { describe, expect, it } from 'vitest';
import { detectEmails } from '../../../../server/scrape/enrich/redact/email-detector';
import { found } from './found';

const emails = (text: string) => found(text, detectEmails);

describe('email detection', () => {
  it.each([
    ['Write to alice.smith@example.com today.', ['alice.smith@example.com']],
    ['<a href="mailto:bob+news@mail.example.co.uk?subject=hi">', ['bob+news@mail.example.co.uk']],
    ['https://x.test/unsubscribe?email=carol%40example.org&list=1', ['carol%40example.org']],
    ['two: a@b.io, c_d@e-f.dev', ['a@b.io', 'c_d@e-f.dev']],
  ])('finds the addresses in %j', (text, expected) => {
    expect(emails(text)).toEqual(expected);
  });

  it.each([
    ['retina images like icon@2x.png and hero@3x.webp'],
    ['user@localhost has no domain'],
    ['an npm range pkg@1.2.3'],
    ['@handle mentions and a@ alone'],
    ['x@y.z has a one-letter top-level domain'],
  ])('leaves %j alone', (text) => {
    expect(emails(text)).toEqual([]);
  });

  it('finds spelled-out addresses in the aggressive mode only', () => {
    const text = 'Reach me at dana [at] example [dot] com or eve at example dot org.';
    expect(emails(text)).toEqual([]);
    expect(found(text, (t) => detectEmails(t, { aggressive: true }))).toEqual([
      'dana [at] example [dot] com',
      'eve at example dot org',
    ]);
  });
});
