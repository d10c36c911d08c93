import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COOKIE_BANNER_SELECTORS } from '../../../extension/page/cookie-banners';
import { parseHtml } from '../../../shared/html/parse-html';
import { createSelectorList } from '../../../shared/html/selector-list';

const PAGES = fileURLToPath(new URL('../../fixtures/pages', import.meta.url));
const LISTS = [
  ['nav', 'header', '.menu', '.nav', '#footer', '#main', '[role=navigation]', 'main p', 'a[href^="/"]'],
  ['article', '.share', 'aside', 'li:first-child', '[hidden]:not([hidden="until-found" i])'],
  ['[role=banner]', '[role=contentinfo]', '[aria-modal=true]', '[role="dialog"]', '[data-x="a b"]'],
  [...COOKIE_BANNER_SELECTORS],
];

describe('a selector list', () => {
  it('selects what querySelectorAll selects for the list joined with commas, in document order', () => {
    for (const slug of readdirSync(PAGES)) {
      const document = parseHtml(readFileSync(join(PAGES, slug, 'source.html'), 'utf8'));
      for (const selectors of LISTS) {
        const expected = Array.from(document.body.querySelectorAll(selectors.join(', ')));
        expect(
          createSelectorList(selectors).selectAll(document.body),
          `${slug}: ${selectors.join(', ')}`,
        ).toEqual(expected);
      }
    }
  });

  it('matches tags in any case, and ids and class names exactly, as HTML selectors do', () => {
    const document = parseHtml(
      '<NAV id="x">1</NAV><div id="Main">2</div><div id="main">3</div>' +
        '<p class="a\u00a0menu">4</p><p class="Menu">5</p><p class="menu-bar">6</p>',
    );
    const list = createSelectorList(['nav', '#main', '.menu']);
    expect(list.selectAll(document.body).map((element) => element.textContent)).toEqual(['1', '3', '4']);
    expect(list.selectAll(document.body)).toEqual(
      Array.from(document.body.querySelectorAll('nav, #main, .menu')),
    );
  });

  it('matches [name=value] by the exact value, as HTML selectors do', () => {
    const document = parseHtml(
      '<div role="banner">1</div><div role="Banner">2</div><div role="banner x">3</div>' +
        '<div aria-modal="true">4</div><div data-x="a b">5</div><div role="">6</div>',
    );
    const selectors = ['[role=banner]', '[aria-modal=true]', '[data-x="a b"]', '[role=""]'];
    const list = createSelectorList(selectors);
    expect(list.selectAll(document.body).map((element) => element.textContent)).toEqual(['1', '4', '5', '6']);
    expect(list.selectAll(document.body)).toEqual(
      Array.from(document.body.querySelectorAll(selectors.join(', '))),
    );
  });

  it('leaves out what a <template> holds, and matches the template itself', () => {
    const document = parseHtml(
      '<template class="menu"><p class="menu">in</p></template><p class="menu">out</p>',
    );
    const list = createSelectorList(['.menu']);
    expect(list.selectAll(document.body).map((element) => element.localName)).toEqual(['template', 'p']);
    expect(list.selectAll(document.body)).toEqual(Array.from(document.body.querySelectorAll('.menu')));
  });

  it('walks a tree deeper than the stack without recursing', () => {
    const depth = 20_000;
    const document = parseHtml(`${'<div>'.repeat(depth)}<nav>deep</nav>${'</div>'.repeat(depth)}`);
    expect(
      createSelectorList(['nav'])
        .selectAll(document.body)
        .map((element) => element.textContent),
    ).toEqual(['deep']);
  });

  it('answers for single elements as Element.matches does', () => {
    const document = parseHtml('<ul><li class="a">1</li><li>2</li></ul>');
    const list = createSelectorList(['.a', 'li:last-child']);
    expect(Array.from(document.querySelectorAll('li'), (li) => list.matches(li))).toEqual([true, true]);
    expect(list.matches(document.querySelector('ul') as Element)).toBe(false);
  });
});
