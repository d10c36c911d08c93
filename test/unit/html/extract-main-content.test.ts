import { describe, expect, it } from 'vitest';
import { extractMainContent, preferArticle } from '../../../shared/html/extract-main-content';
import { parseHtml } from '../../../shared/html/parse-html';

const prose = (words: number, seed: string) =>
  Array.from({ length: words }, (_, index) => `${seed}${index % 17}`).join(' ') + '.';

function article(extra: string): string {
  return `<html><head><meta property="og:type" content="article"></head><body>
    <div class="layout"><div class="story"><h1>Bees</h1>
      <p>${prose(120, 'honey')}</p><p>${prose(120, 'pollen')}</p><p>${prose(120, 'comb')}</p></div>
    ${extra}</div></body></html>`;
}

describe('extractMainContent', () => {
  it('takes Readability’s article when the blocklist leaves mostly links behind', () => {
    const related = Array.from(
      { length: 40 },
      (_, i) => `<li><a href="/s/${i}">Related story number ${i} about wasps</a></li>`,
    ).join('');
    const document = parseHtml(article(`<div class="related"><ul>${related}</ul></div>`));
    expect(extractMainContent(document, {})).toBe('readability');
    expect(document.body.textContent).toContain('honey0');
    expect(document.body.textContent).not.toContain('Related story');
  });

  it('keeps the blocklist’s result when Readability would drop prose (a forum thread)', () => {
    const posts = Array.from(
      { length: 6 },
      (_, i) => `<div class="post"><p class="author">user${i}</p><p>${prose(60, `reply${i}x`)}</p></div>`,
    ).join('');
    const document = parseHtml(`<html><body><div class="thread">${posts}</div></body></html>`);
    expect(extractMainContent(document, {})).toBe('blocklist');
    expect(document.body.textContent).toContain('reply5x0');
  });

  it('keeps every post of a thread that declares itself an article (og:type is a hint)', () => {
    const posts = Array.from(
      { length: 6 },
      (_, i) => `<div class="post"><p class="author">user${i}</p><p>${prose(60, `reply${i}x`)}</p></div>`,
    ).join('');
    const document = parseHtml(
      `<html><head><meta property="og:type" content="article"></head><body><div class="thread">${posts}</div></body></html>`,
    );
    extractMainContent(document, {});
    expect(document.body.textContent).toContain('reply0x0');
    expect(document.body.textContent).toContain('reply5x0');
  });

  it('keeps the article, not its comments, when the comments are the repeated entries', () => {
    const comments = Array.from(
      { length: 5 },
      (_, i) => `<div class="comment"><p>${prose(30, `comment${i}x`)}</p></div>`,
    ).join('');
    const document = parseHtml(article(`<div class="comments">${comments}</div>`));
    expect(extractMainContent(document, {})).toBe('readability');
    expect(document.body.textContent).toContain('comb0');
    expect(document.body.textContent).not.toContain('comment0x0');
  });

  it('keeps an article whose text sits in a <header>, and its headline', () => {
    const document = parseHtml(`<html><head><title>Bees</title></head><body>
      <header class="site-header"><a href="/">Site</a></header>
      <div class="story"><header class="intro"><h1>Bees</h1>
        <p>${prose(120, 'honey')}</p><p>${prose(120, 'pollen')}</p></header></div>
      <footer class="site-footer"><p>Footer</p></footer></body></html>`);
    extractMainContent(document, {});
    expect(document.body.querySelector('h1')?.textContent).toBe('Bees');
    expect(document.body.textContent).toContain('pollen0');
    expect(document.body.textContent).not.toContain('Footer');
  });

  it('keeps only the blocklist when includeTags chose the content', () => {
    const document = parseHtml(article('<nav><a href="/">Home</a></nav>'));
    const story = document.querySelector('.story') as Element;
    expect(extractMainContent(document, { keep: new Set([story]) })).toBe('blocklist');
  });
});

describe('preferArticle', () => {
  const measure = (text: number, linkText = 0, structured = 0) => ({ text, linkText, structured });

  it('refuses a short article', () => {
    expect(preferArticle(measure(5000, 4000), measure(100), 'declared')).toBe(false);
  });

  it('counts near agreement as a reason for the blocklist, which keeps headline and byline', () => {
    expect(preferArticle(measure(2100), measure(2000), 'element')).toBe(false);
    // …unless the page declares itself an article: then Readability's cleaner text wins.
    expect(preferArticle(measure(2100), measure(2000), 'declared')).toBe(true);
  });

  it('refuses when code or data tables would be lost (docs, spec sheets)', () => {
    expect(preferArticle(measure(6000, 3000, 500), measure(2000), 'declared')).toBe(false);
  });

  it('takes the article when the blocklist kept less than Readability found', () => {
    expect(preferArticle(measure(60, 30), measure(650), 'none')).toBe(true);
  });

  it('takes a declared article even when much prose (comments, teasers) is dropped', () => {
    expect(preferArticle(measure(10_000, 1000), measure(1000), 'declared')).toBe(true);
    expect(preferArticle(measure(10_000, 1000), measure(1000), 'none')).toBe(false);
  });

  it('refuses an article that is one of many alike entries, declared or not', () => {
    expect(preferArticle(measure(10_000, 1000), measure(1000), 'declared', 8000)).toBe(false);
    expect(preferArticle(measure(10_000, 1000), measure(1000), 'declared', 0)).toBe(true);
  });

  it('takes the article when what is dropped is links', () => {
    expect(preferArticle(measure(6000, 3500), measure(2000, 50), 'none')).toBe(true);
  });

  it('refuses an intro when a listing of titled items outweighs it, unless the page is declared an article', () => {
    // A job board: 13,000 characters of links, of which Readability kept a 1,000-character intro.
    expect(preferArticle(measure(13_000, 12_000), measure(1000), 'element', 0, 12_000)).toBe(false);
    expect(preferArticle(measure(13_000, 12_000), measure(1000), 'element', 0, 0)).toBe(true);
    // A news article with a long "more stories" list the blocklist kept is still the article.
    expect(preferArticle(measure(13_000, 12_000), measure(1000), 'declared', 0, 12_000)).toBe(true);
  });
});
