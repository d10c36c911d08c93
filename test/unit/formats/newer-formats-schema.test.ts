import { describe, expect, it } from 'vitest';
import {
  FormatsV2,
  MAX_ATTRIBUTE_SELECTORS,
  MAX_QUESTION_CHARS,
  MAX_SELECTOR_CHARS,
} from '../../../shared/api/v2/formats';
import { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';

const messages = (formats: unknown) => {
  const result = FormatsV2.safeParse(formats);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('the newer v2 formats', () => {
  it('parse as the clients send them, names and objects mixed', () => {
    expect(
      FormatsV2.parse([
        'product',
        'menu',
        'audio',
        { type: 'video' },
        { type: 'attributes', selectors: [{ selector: ' a.buy ', attribute: 'href' }] },
        { type: 'highlights', query: 'smoker price' },
        { type: 'question', question: 'What does it cost?' },
      ]),
    ).toEqual([
      { type: 'product' },
      { type: 'menu' },
      { type: 'audio' },
      { type: 'video' },
      { type: 'attributes', selectors: [{ selector: 'a.buy', attribute: 'href' }] },
      { type: 'highlights', query: 'smoker price' },
      { type: 'question', question: 'What does it cost?' },
    ]);
  });

  it('default the query format to freeform and take directQuote', () => {
    expect(FormatsV2.parse([{ type: 'query', prompt: 'price?' }])).toEqual([
      { type: 'query', prompt: 'price?', mode: 'freeform' },
    ]);
    expect(FormatsV2.parse([{ type: 'query', prompt: 'price?', mode: 'directQuote' }])[0]).toMatchObject({
      mode: 'directQuote',
    });
  });

  it.each([
    ['attributes', 'a name alone', ['attributes']],
    ['attributes', 'no selectors', [{ type: 'attributes', selectors: [] }]],
    [
      'attributes',
      'a blank selector',
      [{ type: 'attributes', selectors: [{ selector: ' ', attribute: 'href' }] }],
    ],
    [
      'attributes',
      'a selector that is not a string',
      [{ type: 'attributes', selectors: [{ selector: 5, attribute: 'x' }] }],
    ],
    [
      'attributes',
      'an unknown key',
      [{ type: 'attributes', selectors: [{ selector: 'a', attribute: 'href', all: true }] }],
    ],
    ['highlights', 'no query', [{ type: 'highlights' }]],
    ['highlights', 'a query that is an array', [{ type: 'highlights', query: ['a'] }]],
    ['question', 'an empty question', [{ type: 'question', question: '   ' }]],
    ['question', 'a name alone', ['question']],
    ['query', 'an unknown mode', [{ type: 'query', prompt: 'x', mode: 'summary' }]],
    ['query', "the old 'directQuote' flag", [{ type: 'query', prompt: 'x', directQuote: true }]],
  ])('refuse %s with %s', (_type, _what, formats) => {
    expect(messages(formats).length).toBeGreaterThan(0);
  });

  it('bound selector count and length, and question length', () => {
    const selector = { selector: 'a', attribute: 'href' };
    expect(
      messages([{ type: 'attributes', selectors: Array(MAX_ATTRIBUTE_SELECTORS).fill(selector) }]),
    ).toEqual([]);
    expect(
      messages([{ type: 'attributes', selectors: Array(MAX_ATTRIBUTE_SELECTORS + 1).fill(selector) }]),
    ).not.toEqual([]);
    const long = { selector: `a${'[x]'.repeat(MAX_SELECTOR_CHARS)}`, attribute: 'href' };
    expect(messages([{ type: 'attributes', selectors: [long] }])).not.toEqual([]);
    expect(messages([{ type: 'highlights', query: 'q'.repeat(MAX_QUESTION_CHARS + 1) }])).not.toEqual([]);
    expect(messages([{ type: 'question', question: 'q'.repeat(100 * 1024) }])).not.toEqual([]);
  });

  it('allow one attributes, one highlights and one answer-giving format', () => {
    const attributes = { type: 'attributes', selectors: [{ selector: 'a', attribute: 'href' }] };
    expect(messages([attributes, attributes])).toEqual(['You may only specify one attributes format']);
    expect(
      messages([
        { type: 'highlights', query: 'a' },
        { type: 'highlights', query: 'b' },
      ]),
    ).toEqual(['You may only specify one highlights format']);
    expect(
      messages([
        { type: 'question', question: 'a' },
        { type: 'query', prompt: 'b' },
      ]),
    ).toEqual(['You may only specify one question or query format']);
  });

  it('reach crawl and search scrape options, which share the schema', () => {
    expect(
      ScrapeOptionsV2.parse({ formats: ['product', { type: 'highlights', query: 'x' }] }).formats,
    ).toEqual([{ type: 'product' }, { type: 'highlights', query: 'x' }]);
  });
});
