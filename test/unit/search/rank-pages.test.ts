import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../server/platform/text/parse-query';
import { rankPages, type RankablePage } from '../../../server/platform/text/rank-pages';
import { tokenize } from '../../../server/platform/text/tokenize';

const page = (url: string, title: string, text: string, description = ''): RankablePage => ({
  url,
  title,
  description,
  text,
  length: tokenize(`${title} ${description} ${text}`).length,
});

const PAGES = [
  page('https://bees.test/queen', 'The queen bee', 'A queen bee lays eggs. The queen rules the hive.'),
  page(
    'https://bees.test/honey',
    'Honey harvest',
    'Harvest honey in late summer. Bees make honey from nectar.',
  ),
  page('https://docs.bees.test/guide/hive.html', 'Hive guide', 'Build a hive box. A hive needs a queen.'),
  page('https://wasps.test/nest', 'Wasp nests', 'Wasps build paper nests; they are not bees.'),
  page('https://files.test/report.pdf', 'Annual honey report', 'Honey output rose.'),
];
const rank = (query: string) => rankPages(parseQuery(query), PAGES, PAGES.length).map((r) => r.page.url);

describe('rankPages', () => {
  it('ranks pages by how much they are about the words, title first', () => {
    expect(rank('queen')).toEqual(['https://bees.test/queen', 'https://docs.bees.test/guide/hive.html']);
    expect(rank('honey').sort()).toEqual(['https://bees.test/honey', 'https://files.test/report.pdf']);
    expect(rank('hive')[0]).toBe('https://docs.bees.test/guide/hive.html');
  });

  it('prefers pages holding more of the words', () => {
    expect(rank('queen hive')[0]).toBe('https://docs.bees.test/guide/hive.html');
  });

  it('requires exact phrases', () => {
    expect(rank('"queen bee"')).toEqual(['https://bees.test/queen']);
    expect(rank('"bee queen"')).toEqual([]);
  });

  it('drops pages with excluded words or phrases', () => {
    expect(rank('bees -wasps')).not.toContain('https://wasps.test/nest');
    expect(rank('hive -"hive box"')).toEqual(['https://bees.test/queen']);
  });

  it('filters by site (subdomains and path prefixes included) and -site', () => {
    expect(rank('hive site:bees.test')).toEqual([
      'https://docs.bees.test/guide/hive.html',
      'https://bees.test/queen',
    ]);
    expect(rank('hive site:docs.bees.test/guide')).toEqual(['https://docs.bees.test/guide/hive.html']);
    expect(rank('queen -site:docs.bees.test')).toEqual(['https://bees.test/queen']);
  });

  it('filters by inurl, allintitle and filetype, also without other words', () => {
    expect(rank('inurl:guide')).toEqual(['https://docs.bees.test/guide/hive.html']);
    expect(rank('allintitle: honey harvest')).toEqual(['https://bees.test/honey']);
    expect(rank('honey filetype:pdf')).toEqual(['https://files.test/report.pdf']);
  });

  it('returns nothing for words no page holds', () => {
    expect(rank('elephant')).toEqual([]);
  });
});
