import { describe, expect, it } from 'vitest';
import { redactionSettings } from '../../../../shared/api/v2/redact-pii';
import { findPii } from '../../../../server/scrape/enrich/redact/redact-text';

/**
 * Pages are written by anyone: inputs shaped to make a backtracking engine explode (long runs of
 * what a pattern's repeated part accepts, followed by what makes it fail) must be searched in one
 * pass. Every detector runs on RE2 (linear time); these inputs would stall a backtracking
 * version of the same patterns for minutes. No timer is asserted: a regression shows as a test
 * that does not finish.
 */
const SIZE = 200_000;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

describe('redaction on hostile input', () => {
  const settings = redactionSettings({
    mode: 'aggressive',
    entities: ['EMAIL', 'PHONE', 'FINANCIAL', 'SECRET'],
  })!;

  it.each([
    ['a run of letters', fill('a')],
    ['a run of digits', fill('7')],
    ['digits and dashes', fill('4111-')],
    ['an address that never ends', `a@${fill('a.')}`],
    ['local parts without domains', fill('a.b+c@')],
    ['pluses and digits', fill('+1 ')],
    ['a private key that never ends', `-----BEGIN RSA PRIVATE KEY-----${fill('QUJD')}`],
    ['keys and no values', fill('password=;')],
    ['JWT heads', fill('eyJhbGciOi.')],
    ['bearer and nothing', fill('Bearer ')],
    ['URLs with a colon and no @', fill('http://a:')],
    ['spelled markers', fill('x [at] y ')],
    ['country codes', fill('DE89 ')],
  ])(
    'searches %s in one pass and finds nothing',
    (_name, text) => {
      expect(findPii(text, settings)).toEqual([]);
    },
    60_000,
  );

  it('finds every one of many real matches', () => {
    const text = fill('Mail ada@example.com, call +44 20 7946 0958, pay 4111 1111 1111 1111. ');
    const spans = findPii(text, settings);
    const whole = Math.floor(SIZE / 72);
    expect(spans.filter((span) => span.entity === 'EMAIL').length).toBeGreaterThanOrEqual(whole);
    expect(spans.filter((span) => span.entity === 'PHONE').length).toBeGreaterThanOrEqual(whole);
    expect(spans.filter((span) => span.entity === 'FINANCIAL').length).toBeGreaterThanOrEqual(whole);
  }, 60_000);
});
