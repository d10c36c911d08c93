import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../shared/html/parse-html';
import { readArticle } from '../../../shared/html/read-article';

const ARTICLE = `<article><h1>Hives</h1>${'<p>A hive holds a colony of bees, its comb and its honey, and a keeper tends it through the seasons. </p>'.repeat(6)}
<p>See <a href="frames.html">frames</a>, <a href="#smoke">smoke</a> and <img src="comb.png" alt="comb">.</p></article>`;

describe('readArticle', () => {
  it('leaves relative URLs as written in a page without <base> (linkedom documents have no base URI)', () => {
    const article = readArticle(parseHtml(`<body>${ARTICLE}</body>`));
    const links = Array.from(article?.content.querySelectorAll('a') ?? [], (a) => a.getAttribute('href'));
    expect(links).toEqual(['frames.html', '#smoke']);
    expect(article?.content.querySelector('img')?.getAttribute('src')).toBe('comb.png');
  });

  it("resolves them against the page's <base href>, as Readability does", () => {
    const article = readArticle(
      parseHtml(`<head><base href="https://example.test/docs/"></head><body>${ARTICLE}</body>`),
    );
    const links = Array.from(article?.content.querySelectorAll('a') ?? [], (a) => a.getAttribute('href'));
    expect(links).toEqual(['https://example.test/docs/frames.html', 'https://example.test/docs/#smoke']);
  });

  it('retries on the page as it was when the first pass finds too little (patched to keep a copy, not HTML)', () => {
    // The first pass strips "unlikely" blocks (a class naming a sidebar), leaving no article; the
    // retry without that rule must start again from the untouched page and find the text there.
    const prose = '<p>A hive holds a colony of bees, its comb and its honey, and a keeper tends it. </p>';
    const document = parseHtml(
      `<body><div class="sidebar"><h2>Hives</h2>${prose.repeat(5)}<b>kept whole</b></div></body>`,
    );
    const article = readArticle(document);
    expect(article?.content.textContent).toContain('kept whole');
    expect(article?.content.textContent?.match(/colony of bees/g)?.length).toBe(5);
    // The caller's page is untouched.
    expect(document.querySelector('div.sidebar')?.querySelectorAll('p').length).toBe(5);
  });

  it('takes a short byline out of the article and leaves a long one in (patched to read the text only of a byline)', () => {
    const prose = '<p>A hive holds a colony of bees, its comb and its honey, and a keeper tends it. </p>';
    const page = (byline: string) =>
      readArticle(parseHtml(`<body><article><h1>Hives</h1>${byline}${prose.repeat(6)}</article></body>`));
    expect(page('<p class="byline">By Jane Keeper</p>')?.content.textContent).not.toContain('Jane Keeper');
    expect(page('<p rel="author">By Jane Keeper</p>')?.content.textContent).not.toContain('Jane Keeper');
    // A hundred characters or more is no byline, whatever its class says.
    const long = `By Jane Keeper, ${'who has kept bees on the same hill for longer than anyone remembers, '.repeat(2)}`;
    expect(page(`<p class="byline">${long}</p>`)?.content.textContent).toContain('Jane Keeper');
  });

  it('finds no article in a page without text', () => {
    expect(readArticle(parseHtml('<body><div></div></body>'))).toBeUndefined();
  });
});
