import { describe, expect, it } from 'vitest';
import { InvalidSelectorError } from '../../../shared/html/clean-html';
import { parseHtml } from '../../../shared/html/parse-html';
import { attributesWarnings, readAttributes } from '../../../server/scrape/derive/formats/attributes-format';
import {
  SelectorBudgetError,
  createBoundedSelect,
} from '../../../server/scrape/derive/formats/bounded-select';

const PAGE = parseHtml(`<!DOCTYPE html><html><head><meta property="og:image" content="/og.png"></head><body>
  <ul class="products">
    <li data-sku="A1"><a class="buy" href="/p/a1">A1</a><img src="/a1.jpg" alt="A one"></li>
    <li data-sku="B2"><a class="buy" href="/p/b2">B2</a><img src="/b2.jpg"></li>
    <li><a href="/p/c3">no sku</a></li>
  </ul>
</body></html>`);

/** A page of `count` list items in one list, each with a link. */
function bigPage(count: number) {
  const items = Array.from(
    { length: count },
    (_, i) => `<li class="i${i % 7}"><a href="/p/${i}">${i}</a></li>`,
  );
  return parseHtml(`<html><body><ul>${items.join('')}</ul></body></html>`);
}

describe('readAttributes', () => {
  it('answers each selector with its attribute values in document order, as written', () => {
    const read = readAttributes(PAGE, [
      { selector: 'a.buy', attribute: 'href' },
      { selector: 'li', attribute: 'data-sku' },
      { selector: 'meta[property="og:image"]', attribute: 'content' },
      { selector: 'img', attribute: 'ALT' },
      { selector: 'table', attribute: 'id' },
    ]);
    expect(read.attributes).toEqual([
      { selector: 'a.buy', attribute: 'href', values: ['/p/a1', '/p/b2'] },
      { selector: 'li', attribute: 'data-sku', values: ['A1', 'B2'] },
      { selector: 'meta[property="og:image"]', attribute: 'content', values: ['/og.png'] },
      { selector: 'img', attribute: 'ALT', values: ['A one'] },
      { selector: 'table', attribute: 'id', values: [] },
    ]);
    expect(read.tooCostly).toEqual([]);
  });

  it('matches :has(), :not() and combinators as CSS defines them', () => {
    const read = readAttributes(PAGE, [
      { selector: 'li:has(img:not([alt])) > a', attribute: 'href' },
      { selector: 'li:nth-child(odd) a', attribute: 'href' },
    ]);
    expect(read.attributes.map(({ values }) => values)).toEqual([['/p/b2'], ['/p/a1', '/p/c3']]);
  });

  it('stops a pathological selector within its budget and still answers the others', () => {
    const page = bigPage(20_000);
    const read = readAttributes(page, [
      { selector: 'li:has(~ li:has(~ li a))', attribute: 'class' },
      { selector: 'li.i3 > a', attribute: 'href' },
    ]);
    expect(read.tooCostly).toEqual(['li:has(~ li:has(~ li a))']);
    expect(read.attributes).toHaveLength(1);
    expect(read.attributes[0]?.values).toHaveLength(Math.ceil((20_000 - 3) / 7));
    expect(attributesWarnings(read)[0]).toContain('too costly to match on this page');
  });

  it('stops a quadratic :nth-last-child over a wide list', () => {
    const read = readAttributes(bigPage(20_000), [
      { selector: 'li:nth-last-child(2n) a', attribute: 'href' },
    ]);
    expect(read.tooCostly).toEqual(['li:nth-last-child(2n) a']);
    expect(read.attributes).toEqual([]);
  });

  it('reads a page of 100 000 elements within the budget', () => {
    const page = bigPage(50_000);
    const read = readAttributes(page, [{ selector: 'a', attribute: 'href' }]);
    expect(read.attributes[0]?.values).toHaveLength(10_000);
    expect(read.truncated).toEqual(['a']);
    expect(attributesWarnings(read)[0]).toContain('their values were cut');
  });

  it('gives every selector at most its share when the request budget runs out', () => {
    const read = readAttributes(
      PAGE,
      [
        { selector: 'a', attribute: 'href' },
        { selector: 'img', attribute: 'src' },
      ],
      { budget: 60, perSelector: 60 },
    );
    expect(read.attributes.map(({ selector }) => selector)).toEqual(['a']);
    expect(read.tooCostly).toEqual(['img']);
  });
});

describe('createBoundedSelect', () => {
  it('throws SelectorBudgetError past its budget and InvalidSelectorError for what does not parse', () => {
    expect(() => createBoundedSelect(5).selectAll(PAGE, 'a')).toThrow(SelectorBudgetError);
    expect(() => createBoundedSelect(1_000).selectAll(PAGE, 'a[')).toThrow(InvalidSelectorError);
  });

  it('counts :contains() text as work', () => {
    const select = createBoundedSelect(100_000);
    expect(select.selectAll(PAGE, 'li:contains("no sku")')).toHaveLength(1);
    expect(select.spent).toBeGreaterThan(0);
  });
});
