import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COUNTRY_CODES } from '../../../shared/api/country-codes';
import {
  refineScrapeOptionsV2,
  ScrapeOptionsV2,
  scrapeOptionsV2Shape,
} from '../../../shared/api/v2/scrape-options';

const DIV = 'div[data-original-tag="iframe"]';
const INVALID_COUNTRY = 'Invalid country code. Please use a valid ISO 3166-1 alpha-2 country code.';
const WAIT_BUDGET = 'Total wait time (waitFor + wait actions) cannot exceed 60 seconds';

function issues(input: unknown) {
  const result = ScrapeOptionsV2.safeParse(input);
  return result.success ? [] : result.error.issues;
}

describe('ScrapeOptionsV2', () => {
  it('fills in the v2 defaults', () => {
    expect(ScrapeOptionsV2.parse({})).toEqual({
      formats: [{ type: 'markdown' }],
      onlyMainContent: true,
      waitFor: 0,
      mobile: false,
      parsers: ['pdf'],
      skipTlsVerification: true,
      removeBase64Images: true,
      fastMode: false,
      blockAds: true,
      blockMedia: true,
      proxy: 'auto',
      storeInCache: true,
    });
  });

  it('leaves timeout, maxAge and the other optional fields out when absent', () => {
    const options = ScrapeOptionsV2.parse({});
    for (const key of ['timeout', 'maxAge', 'headers', 'includeTags', 'excludeTags', 'actions', 'location']) {
      expect(options).not.toHaveProperty(key);
    }
  });

  it('keeps explicit values', () => {
    const input = {
      formats: ['html'],
      headers: { 'User-Agent': 'test', Cookie: 'a=b' },
      onlyMainContent: false,
      timeout: 30_000,
      waitFor: 1000,
      mobile: true,
      parsers: [],
      skipTlsVerification: false,
      removeBase64Images: false,
      fastMode: true,
      blockAds: false,
      blockMedia: false,
      proxy: 'stealth',
      maxAge: 0,
      storeInCache: false,
      useMock: 'fixture',
      __experimental_omce: true,
      __experimental_omceDomain: 'example.com',
      __searchPreviewToken: 'token',
    };
    expect(ScrapeOptionsV2.parse(input)).toEqual({ ...input, formats: [{ type: 'html' }] });
  });

  it('is strict', () => {
    expect(issues({ notAnOption: 5 })).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['notAnOption'], path: [] }),
    ]);
  });

  it.each([
    ['timeout', 0],
    ['timeout', -1],
    ['timeout', 1.5],
    ['timeout', '30000'],
    ['waitFor', -1],
    ['waitFor', 60_001],
    ['maxAge', -1],
    ['proxy', 'residential'],
    ['onlyMainContent', 'yes'],
  ])('rejects %s = %j', (key, value) => {
    expect(issues({ [key]: value })).toEqual([expect.objectContaining({ path: [key] })]);
  });

  describe('waitFor and timeout', () => {
    it('rejects a waitFor above half the timeout', () => {
      expect(issues({ timeout: 1000, waitFor: 501 })).toEqual([
        { code: 'custom', message: 'waitFor must not exceed half of timeout', path: ['waitFor'] },
      ]);
    });

    it('accepts half the timeout, and either one alone', () => {
      expect(issues({ timeout: 1000, waitFor: 500 })).toEqual([]);
      expect(issues({ waitFor: 60_000 })).toEqual([]);
      expect(issues({ timeout: 1 })).toEqual([]);
    });
  });

  describe('wait budget', () => {
    it('counts waitFor, wait milliseconds and 1000 ms per selector wait', () => {
      const actions = [
        { type: 'wait', milliseconds: 58_000 },
        { type: 'wait', selector: '#ready' },
      ];
      expect(issues({ waitFor: 1000, actions })).toEqual([]);
      expect(issues({ waitFor: 1001, actions })).toEqual([
        { code: 'custom', message: WAIT_BUDGET, path: ['actions'] },
      ]);
    });

    it('rejects wait actions alone above 60 s', () => {
      const actions = [
        { type: 'wait', milliseconds: 30_000 },
        { type: 'wait', milliseconds: 30_001 },
      ];
      expect(issues({ actions }).map((issue) => issue.message)).toEqual([WAIT_BUDGET]);
    });

    it('reports the action count', () => {
      const actions = Array.from({ length: 51 }, () => ({ type: 'scrape' }));
      expect(issues({ actions }).map((issue) => issue.message)).toEqual([
        'Number of actions cannot exceed 50',
      ]);
    });
  });

  describe('parsers', () => {
    it('accepts ["pdf"] and []', () => {
      expect(ScrapeOptionsV2.parse({ parsers: ['pdf'] }).parsers).toEqual(['pdf']);
      expect(ScrapeOptionsV2.parse({ parsers: [] }).parsers).toEqual([]);
    });

    it('gives each request its own default array', () => {
      const first = ScrapeOptionsV2.parse({});
      first.parsers.length = 0;
      expect(ScrapeOptionsV2.parse({}).parsers).toEqual(['pdf']);
    });

    it.each([[['invalid']], ['pdf'], [{ pdf: true }], [[{ type: 'pdf', mode: 'slow' }]], [null]])(
      'rejects %j',
      (parsers) => {
        expect(issues({ parsers })).toEqual([
          expect.objectContaining({ path: expect.arrayContaining(['parsers']) }),
        ]);
      },
    );
  });

  describe('location', () => {
    it('upper-cases a country code given in any case', () => {
      expect(ScrapeOptionsV2.parse({ location: { country: 'de' } }).location).toEqual({ country: 'DE' });
      expect(ScrapeOptionsV2.parse({ location: { country: 'Gb', languages: ['en-GB'] } }).location).toEqual({
        country: 'GB',
        languages: ['en-GB'],
      });
    });

    it('uses US-generic when the country is absent, empty or US-generic in any case', () => {
      for (const location of [{}, { country: '' }, { country: 'US-generic' }, { country: 'us-GENERIC' }]) {
        expect(ScrapeOptionsV2.parse({ location }).location).toEqual({ country: 'US-generic' });
      }
    });

    it.each(['XX', 'UK', 'EU', 'USA', 'd', 'XK'])('rejects the country %j', (country) => {
      expect(issues({ location: { country } })).toEqual([
        { code: 'custom', message: INVALID_COUNTRY, path: ['location', 'country'] },
      ]);
    });

    it('drops unknown keys and checks languages', () => {
      expect(ScrapeOptionsV2.parse({ location: { country: 'fr', city: 'Paris' } }).location).toEqual({
        country: 'FR',
      });
      expect(issues({ location: { languages: 'en' } })).toHaveLength(1);
    });

    it('takes language tags and refuses what Chromium would refuse as Accept-Language', () => {
      expect(
        ScrapeOptionsV2.parse({ location: { languages: ['en-US', 'de', 'zh_Hant_TW', '*'] } }).location
          ?.languages,
      ).toEqual(['en-US', 'de', 'zh_Hant_TW', '*']);
      // The fuzzer's find: a control character made the whole scrape fail with a 500.
      for (const language of ['en\nX', 'Û=Ä|', '=', 'en US', '', 'en;q=0.5', 'a'.repeat(9)]) {
        expect(issues({ location: { languages: [language] } }), language).toEqual([
          expect.objectContaining({ path: ['location', 'languages', 0] }),
        ]);
      }
      expect(issues({ location: { languages: Array.from({ length: 21 }, () => 'en') } })).toHaveLength(1);
    });

    it('knows the 249 assigned codes and no others', () => {
      expect(COUNTRY_CODES.size).toBe(249);
      const names = new Intl.DisplayNames(['en'], { type: 'region' });
      for (const code of COUNTRY_CODES) expect(names.of(code)).not.toBe(code);
    });
  });

  describe('headers', () => {
    it('rejects invalid names, line breaks in values and more than 50 headers', () => {
      expect(issues({ headers: { 'X Bad': 'v' } })).toHaveLength(1);
      expect(issues({ headers: { 'X-Ok': 'a\r\nX-Injected: 1' } })).toHaveLength(1);
      expect(issues({ headers: { 'X-Ok': 5 } })).toHaveLength(1);
      const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`X-H${i}`, 'v']));
      expect(issues({ headers: fifty })).toEqual([]);
      expect(issues({ headers: { ...fifty, 'X-One-More': 'v' } }).map((issue) => issue.message)).toEqual([
        'At most 50 headers are allowed',
      ]);
    });

    it('caps a value at 8192 characters', () => {
      expect(issues({ headers: { Cookie: 'a'.repeat(8192) } })).toEqual([]);
      expect(issues({ headers: { Cookie: 'a'.repeat(8193) } })).toHaveLength(1);
    });
  });

  describe('includeTags and excludeTags', () => {
    it('rewrite iframe selectors', () => {
      const options = ScrapeOptionsV2.parse({
        includeTags: ['iframe', 'iframe.video', 'div.content'],
        excludeTags: ['iframe, iframe.video', '.container iframe[src*="youtube.com"]'],
      });
      expect(options.includeTags).toEqual([DIV, `${DIV}.video`, 'div.content']);
      expect(options.excludeTags).toEqual([`${DIV}, ${DIV}.video`, `.container ${DIV}[src*="youtube.com"]`]);
    });

    it('handle empty arrays and leave partial matches alone', () => {
      expect(ScrapeOptionsV2.parse({ includeTags: [], excludeTags: [] })).toMatchObject({
        includeTags: [],
        excludeTags: [],
      });
      expect(
        ScrapeOptionsV2.parse({ includeTags: ['div.iframe-container', 'my-iframe'] }).includeTags,
      ).toEqual(['div.iframe-container', 'my-iframe']);
    });

    it('must be arrays of strings', () => {
      expect(issues({ includeTags: 'iframe' })).toHaveLength(1);
      expect(issues({ excludeTags: [1] })).toHaveLength(1);
    });
  });

  it('shares its shape and rules with bodies that flatten the options', () => {
    const Batch = z
      .strictObject({ ...scrapeOptionsV2Shape, urls: z.array(z.string()) })
      .superRefine(refineScrapeOptionsV2);
    expect(Batch.parse({ urls: ['a'] })).toMatchObject({ urls: ['a'], waitFor: 0, proxy: 'auto' });
    expect(Batch.safeParse({ urls: [], timeout: 100, waitFor: 60 }).error?.issues).toEqual([
      { code: 'custom', message: 'waitFor must not exceed half of timeout', path: ['waitFor'] },
    ]);
  });
});
