import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../shared/html/parse-html';
import { removeRecommendationSections } from '../../../shared/html/recommendation-sections';

const DESCRIPTION =
  '<p>A light trail shoe with a rock plate and a grippy outsole for wet and loose ground, and a wide toe box.</p>';
const CARDS =
  '<ul><li><a href="/p/2">Trail Runner 2</a> €99</li><li><a href="/p/3">Fell Racer</a> €139</li></ul>';
const text = (document: Document) => (document.body.textContent ?? '').replace(/\s+/g, ' ').trim();

describe('removeRecommendationSections', () => {
  it('removes the widest section a carousel heading opens, and keeps the product', () => {
    const document = parseHtml(
      `<div><h1>Trail Runner 3</h1>${DESCRIPTION}</div>` +
        `<div class="strip"><div><h2>Customers also viewed</h2></div>${CARDS}</div>`,
    );
    removeRecommendationSections(document.body);
    expect(document.querySelector('.strip')).toBeNull();
    expect(text(document)).toContain('A light trail shoe');
    expect(document.querySelector('h1')).not.toBeNull();
  });

  it('removes a heading that shares its parent with content, with what follows it up to the next heading', () => {
    const document = parseHtml(
      `<main><h1>Trail Runner 3</h1>${DESCRIPTION}<h2>You may also like</h2>${CARDS}<h2>Care</h2><p>Rinse off mud.</p></main>`,
    );
    removeRecommendationSections(document.body);
    expect(text(document)).not.toContain('Fell Racer');
    expect(text(document)).toContain('CareRinse off mud.');
  });

  it('keeps a section that holds most of the text: then the page is that list', () => {
    const document = parseHtml(`<section><h2>Related products</h2>${CARDS}${DESCRIPTION}</section>`);
    removeRecommendationSections(document.body);
    expect(text(document)).toContain('Fell Racer');
  });

  it('leaves headings that only mention a product alone', () => {
    const document = parseHtml(
      `<section><h2>Similar to road shoes, but tougher</h2>${CARDS}</section>${DESCRIPTION}`,
    );
    removeRecommendationSections(document.body);
    expect(text(document)).toContain('Fell Racer');
  });
});
