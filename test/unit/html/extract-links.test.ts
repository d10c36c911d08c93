import { describe, expect, it } from 'vitest';
import { extractLinks } from '../../../shared/html/extract-links';

const BASE_URL = 'https://example.test/blog/post';

describe('extractLinks', () => {
  it('resolves relative hrefs against the page URL', () => {
    const links = extractLinks(
      '<a href="other">1</a><a href="/root">2</a><a href="../up?q=1">3</a><a href="//cdn.test/x">4</a>',
      BASE_URL,
    );
    expect(links).toEqual([
      'https://example.test/blog/other',
      'https://example.test/root',
      'https://example.test/up?q=1',
      'https://cdn.test/x',
    ]);
  });

  it('resolves against <base href>, itself relative to the page', () => {
    const html = '<html><head><base href="/docs/v2/"></head><body><a href="intro">Intro</a></body></html>';
    expect(extractLinks(html, BASE_URL)).toEqual(['https://example.test/docs/v2/intro']);
  });

  it('drops same-page anchors and script links, keeps mailto and tel', () => {
    const links = extractLinks(
      '<a href="#top">Top</a><a href="">Self</a><a href="javascript:void(0)">JS</a><a href=" JavaScript:go()">JS2</a>' +
        '<a href="data:text/html,hi">Data</a><a href="mailto:team@example.test">Mail</a><a href="tel:+15551234">Call</a>' +
        '<a href="page#section">Section</a>',
      BASE_URL,
    );
    expect(links).toEqual([
      'mailto:team@example.test',
      'tel:+15551234',
      'https://example.test/blog/page#section',
    ]);
  });

  it('de-duplicates after resolution, keeping the first occurrence', () => {
    const links = extractLinks(
      '<a href="/a">1</a><a href="https://example.test/a">2</a><a href="/b">3</a><a href="./other">4</a><a href="/a">5</a>',
      BASE_URL,
    );
    expect(links).toEqual([
      'https://example.test/a',
      'https://example.test/b',
      'https://example.test/blog/other',
    ]);
  });

  it('ignores anchors without href and hrefs that are not URLs', () => {
    expect(
      extractLinks('<a name="x">x</a><a href="http://[bad">bad</a><a href="/ok">ok</a>', BASE_URL),
    ).toEqual(['https://example.test/ok']);
  });
});
