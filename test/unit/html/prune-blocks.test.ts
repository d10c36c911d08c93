import { describe, expect, it } from 'vitest';
import { classifyBlocks } from '../../../shared/html/block-classes';
import { segmentBlocks } from '../../../shared/html/content-blocks';
import { parseHtml } from '../../../shared/html/parse-html';
import { pruneBlocks } from '../../../shared/html/prune-blocks';
import { proseFloor } from '../../../shared/html/safety-rails';

const PROSE =
  'The upper dries quickly after a river crossing, and the wide toe box leaves room for swollen feet at the end of a long day.';
const ALL = { maxLinkDensity: 0.5, goodChars: 80, reach: 'all' } as const;
const EDGES = { ...ALL, reach: 'edges' } as const;
const text = (document: Document) => (document.body.textContent ?? '').replace(/\s+/g, ' ').trim();

describe('segmentBlocks', () => {
  it('cuts a page into the blocks that hold text of their own, in reading order', () => {
    const document = parseHtml(
      `<div>Intro <b>bold</b><p>${PROSE}</p>Tail</div><table><tr><td>a</td><td>b</td></tr></table><h2>Head</h2>`,
    );
    const blocks = segmentBlocks(document.body);
    expect(blocks.map((block) => [block.element.localName, block.kind])).toEqual([
      ['div', 'text'],
      ['p', 'text'],
      ['div', 'text'],
      ['table', 'structured'],
      ['h2', 'heading'],
    ]);
    expect(blocks[1]?.sentences).toBe(1);
  });
});

describe('classifyBlocks', () => {
  it('keeps short blocks between content and headings over content, drops link lists', () => {
    const document = parseHtml(
      `<h2>Fit</h2><p>${PROSE}</p><p>Weighs 290 grams</p><p>${PROSE}</p>` +
        '<ul><li><a href="/a">About</a></li><li><a href="/b">Careers</a></li></ul><p>© Shop</p>',
    );
    const classes = classifyBlocks(segmentBlocks(document.body), ALL);
    expect(classes).toEqual(['good', 'good', 'good', 'good', 'bad', 'bad', 'bad']);
  });
});

describe('pruneBlocks', () => {
  it('removes the chrome left around and between the content', () => {
    const document = parseHtml(
      '<div class="filters"><a href="?s">S</a> <a href="?m">M</a></div>' +
        `<div class="description"><p>${PROSE}</p><p>${PROSE}</p></div>` +
        '<div class="links"><a href="/about">About us</a> <a href="/jobs">Jobs</a></div>',
    );
    pruneBlocks(document.body, ALL);
    expect(text(document)).toBe(`${PROSE}${PROSE}`);
    expect(document.querySelector('.filters, .links')).toBeNull();
  });

  it('reaching only the edges, keeps a grid’s link-heavy cards between content', () => {
    const cards = '<li><a href="/p/1">Stormline Shell</a></li><li><a href="/p/2">Drizzle Packable</a></li>';
    const document = parseHtml(
      `<p>${PROSE}</p><ul>${cards}</ul><p>${PROSE}</p><div><a href="/about">About us</a></div>`,
    );
    pruneBlocks(document.body, EDGES);
    expect(text(document)).toBe(`${PROSE}Stormline ShellDrizzle Packable${PROSE}`);
  });

  it('removes nothing when no block is content', () => {
    const html = '<ul><li><a href="/a">One</a></li><li><a href="/b">Two</a></li></ul>';
    const document = parseHtml(html);
    pruneBlocks(document.body, ALL);
    expect(document.body.innerHTML).toBe(html);
  });
});

describe('proseFloor', () => {
  it('is half the longest paragraph’s prose, or 0 when no block is a paragraph’s worth', () => {
    expect(proseFloor(parseHtml(`<p>${PROSE} ${PROSE}</p><p>Short</p>`).body)).toBe(
      Math.round((PROSE.length * 2 + 1) / 2),
    );
    expect(proseFloor(parseHtml('<p>Short</p>').body)).toBe(0);
  });
});

describe('short sentences', () => {
  it('count as content when the profile says so, and stay undecided otherwise', () => {
    const document = parseHtml(
      '<p>Rinse off mud and let the shoes dry away from a heater.</p><p>Sign up</p>' +
        '<ul><li><a href="/a">About</a></li><li><a href="/b">Careers</a></li></ul>',
    );
    const blocks = segmentBlocks(document.body);
    expect(classifyBlocks(blocks, { ...ALL, shortSentences: true })).toEqual(['good', 'bad', 'bad', 'bad']);
    expect(classifyBlocks(blocks, ALL)).toEqual(['bad', 'bad', 'bad', 'bad']);
  });
});
