import { describe, expect, it } from 'vitest';
import { describeBlock, recognizeBlockPage } from '../../../shared/block-pages/recognize-block-page';
import { pickBlockSignalHeaders } from '../../../shared/block-pages/block-signal-headers';
import { blockPageFixtures } from '../../helpers/block-page-fixtures';

const fixtures = blockPageFixtures();

describe('block page recognizer', () => {
  it('has blocked fixtures of every vendor and kind, and negatives', () => {
    const vendors = new Set(fixtures.flatMap((f) => (f.expect === null ? [] : [f.expect.vendor])));
    expect([...vendors].sort()).toEqual(
      [
        'Akamai',
        'Cloudflare',
        'Cloudflare Turnstile',
        'DataDome',
        'Google reCAPTCHA',
        'HUMAN (PerimeterX)',
        'Imperva',
        'hCaptcha',
        'the site',
      ].sort(),
    );
    expect(new Set(fixtures.flatMap((f) => (f.expect === null ? [] : [f.expect.kind])))).toEqual(
      new Set(['challenge', 'block', 'rate-limit']),
    );
    expect(fixtures.filter((f) => f.expect === null).length).toBeGreaterThanOrEqual(6);
  });

  for (const fixture of fixtures) {
    it(`${fixture.file}: ${fixture.expect === null ? 'not blocked' : `${fixture.expect.vendor} ${fixture.expect.kind}`}`, () => {
      const block = recognizeBlockPage({
        statusCode: fixture.status,
        headers: fixture.headers,
        html: fixture.html,
      });
      if (fixture.expect === null) expect(block).toBeUndefined();
      else expect(block).toMatchObject(fixture.expect);
    });
  }

  it('recognises a challenge read in place (no status, no headers) by its page alone', () => {
    for (const fixture of fixtures.filter((f) => f.expect?.kind === 'challenge')) {
      const inPlace = recognizeBlockPage({ statusCode: 0, html: fixture.html });
      expect({ file: fixture.file, vendor: inPlace?.vendor }).toEqual({
        file: fixture.file,
        vendor: fixture.expect?.vendor,
      });
    }
  });

  it('takes the cf-mitigated header alone as a Cloudflare challenge', () => {
    expect(
      recognizeBlockPage({ statusCode: 403, headers: { 'cf-mitigated': 'challenge' }, html: '<p>x</p>' }),
    ).toMatchObject({ vendor: 'Cloudflare', kind: 'challenge' });
  });

  it('does not take a long page with a CAPTCHA and wall words for a wall', () => {
    const article = `<title>Are you a robot?</title><div class="g-recaptcha"></div><p>Are you a robot? ${'Bees dance to tell the hive where flowers are. '.repeat(30)}</p>`;
    expect(recognizeBlockPage({ statusCode: 200, html: article })).toBeUndefined();
  });

  it('describes each kind for an error message, naming the vendor', () => {
    expect(describeBlock({ vendor: 'Cloudflare', kind: 'challenge', evidence: '' })).toBe(
      'a Cloudflare challenge page',
    );
    expect(describeBlock({ vendor: 'Akamai', kind: 'block', evidence: '' })).toBe('an Akamai block page');
    expect(describeBlock({ vendor: 'the site', kind: 'rate-limit', evidence: '' })).toBe(
      "the site's rate limit (429)",
    );
  });

  it('keeps only the block-signal headers, lower-cased', () => {
    expect(
      pickBlockSignalHeaders(
        Object.entries({ 'CF-Mitigated': 'challenge', 'Set-Cookie': 'secret=1', Server: 'cloudflare' }),
      ),
    ).toEqual({ 'cf-mitigated': 'challenge', server: 'cloudflare' });
  });
});
