import { describe, expect, it } from 'vitest';
import { ParsersV2 } from '../../../shared/api/v2/parsers';
import { requestedParsers } from '../../../server/scrape/derive/pdf/requested-parsers';

const issues = (parsers: unknown) => {
  const result = ParsersV2.safeParse(parsers);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('v2 parsers', () => {
  it('takes the strings and objects the clients type', () => {
    expect(ParsersV2.parse(['pdf', 'image'])).toEqual(['pdf', 'image']);
    expect(ParsersV2.parse([{ type: 'image' }])).toEqual([{ type: 'image' }]);
    expect(
      ParsersV2.parse([
        { type: 'pdf', mode: 'fast', maxPages: 3, pages: true, pageMarkers: true, blocks: false },
      ]),
    ).toEqual([{ type: 'pdf', mode: 'fast', maxPages: 3, pages: true, pageMarkers: true, blocks: false }]);
    expect(ParsersV2.parse(undefined)).toEqual(['pdf']);
  });

  it('reads the deprecated pageMarkdown as pages, where pages is absent', () => {
    expect(requestedParsers(ParsersV2.parse([{ type: 'pdf', pageMarkdown: true }]))).toEqual({
      pdf: { pages: true },
      image: false,
    });
    expect(requestedParsers(ParsersV2.parse([{ type: 'pdf', pageMarkdown: true, pages: false }]))).toEqual({
      pdf: {},
      image: false,
    });
  });

  it('takes the OCR mode and layout blocks', () => {
    expect(issues([{ type: 'pdf', mode: 'ocr', blocks: true }])).toEqual([]);
    expect(requestedParsers(ParsersV2.parse([{ type: 'pdf', mode: 'ocr', blocks: true }]))).toEqual({
      pdf: { mode: 'ocr', blocks: true },
      image: false,
    });
  });

  it.each([
    [[{ type: 'pdf', maxPages: 0 }]],
    [[{ type: 'pdf', maxPages: 2.5 }]],
    [[{ type: 'pdf', maxPages: '3' }]],
    [[{ type: 'pdf', pages: 'yes' }]],
    [[{ type: 'pdf', unknown: 1 }]],
    [[{ type: 'image', mode: 'ocr' }]],
    [[{ type: 'docx' }]],
    [['pdf', { type: 'pdf' }]],
    [{ type: 'pdf' }],
  ])('refuses %j', (parsers) => {
    expect(issues(parsers).length).toBeGreaterThan(0);
  });

  it('comes down to what the server does with a PDF and an image', () => {
    expect(requestedParsers(['pdf'])).toEqual({ pdf: {}, image: false });
    expect(requestedParsers([])).toEqual({ pdf: undefined, image: false });
    expect(requestedParsers(['image'])).toEqual({ pdf: undefined, image: true });
    expect(
      requestedParsers(
        ParsersV2.parse([{ type: 'pdf', mode: 'auto', maxPages: 2, pageMarkdown: true }, { type: 'image' }]),
      ),
    ).toEqual({ pdf: { maxPages: 2, pages: true, mode: 'auto' }, image: true });
  });
});
