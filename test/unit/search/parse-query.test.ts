import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../server/platform/text/parse-query';

describe('parseQuery', () => {
  it('takes plain words, case- and accent-folded', () => {
    expect(parseQuery('Honey  Café').terms).toEqual(['honey', 'cafe']);
  });

  it('keeps quoted phrases as word sequences, also when unterminated', () => {
    const parsed = parseQuery('"queen bee" hive "royal jelly');
    expect(parsed.phrases).toEqual([
      ['queen', 'bee'],
      ['royal', 'jelly'],
    ]);
    expect(parsed.terms).toEqual(['hive']);
  });

  it('excludes -words and -"phrases"', () => {
    const parsed = parseQuery('bees -wasps -"hornet nest"');
    expect(parsed.terms).toEqual(['bees']);
    expect(parsed.excludedTerms).toEqual(['wasps']);
    expect(parsed.excludedPhrases).toEqual([['hornet', 'nest']]);
  });

  it('reads site:, -site:, inurl:, intitle: and filetype:', () => {
    const parsed = parseQuery(
      'site:WWW.Example.com/Docs/ -site:ads.example.com inurl:guide intitle:Honey filetype:PDF',
    );
    expect(parsed.sites).toEqual(['example.com/docs']);
    expect(parsed.excludedSites).toEqual(['ads.example.com']);
    expect(parsed.inUrl).toEqual(['guide']);
    expect(parsed.inTitle).toEqual(['honey']);
    expect(parsed.fileTypes).toEqual(['pdf']);
    expect(parsed.terms).toEqual([]);
  });

  it('gives allinurl: and allintitle: every later word', () => {
    expect(parseQuery('allintitle: queen bee care').inTitle).toEqual(['queen', 'bee', 'care']);
    expect(parseQuery('allinurl:docs api').inUrl).toEqual(['docs', 'api']);
  });

  it('reads related:, imagesize: and larger:', () => {
    const parsed = parseQuery('related:example.com/hives imagesize:1920x1080 larger:800x600');
    expect(parsed.related).toBe('example.com/hives');
    expect(parsed.imageSize).toEqual({ width: 1920, height: 1080 });
    expect(parsed.larger).toEqual({ width: 800, height: 600 });
  });

  it('treats OR and parentheses as grouping, so several site: are alternatives', () => {
    const parsed = parseQuery('llm (site:arxiv.org OR site:github.com)');
    expect(parsed.terms).toEqual(['llm']);
    expect(parsed.sites).toEqual(['arxiv.org', 'github.com']);
  });

  it('treats an unknown operator as ordinary words', () => {
    const parsed = parseQuery('error:404 weird');
    expect(parsed.phrases).toEqual([['error', '404']]);
    expect(parsed.terms).toEqual(['weird']);
  });

  it('survives stray quotes, dashes and empty operators', () => {
    expect(() => parseQuery('" - site: -"" ()) OR')).not.toThrow();
    expect(parseQuery('site: honey')).toMatchObject({ terms: ['honey'], sites: [] });
  });
});
