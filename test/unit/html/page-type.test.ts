import { describe, expect, it } from 'vitest';
import { classifyPageType, isPageType } from '../../../shared/html/page-type';
import { parseHtml } from '../../../shared/html/parse-html';

const page = (head: string, body: string) =>
  parseHtml(`<html><head>${head}</head><body>${body}</body></html>`);
const ld = (type: string) =>
  `<script type="application/ld+json">{"@context":"https://schema.org","@type":"${type}"}</script>`;
const paragraphs = '<p>Some text of the page.</p>';

describe('classifyPageType', () => {
  it('reads schema.org declarations', () => {
    expect(classifyPageType(page(ld('NewsArticle'), paragraphs), 'https://a.example/x')).toBe('article');
    expect(classifyPageType(page(ld('Product'), paragraphs), 'https://a.example/x')).toBe('product');
    expect(classifyPageType(page(ld('QAPage'), paragraphs), 'https://a.example/x')).toBe('forum');
    expect(classifyPageType(page(ld('TechArticle'), paragraphs), 'https://a.example/x')).toBe(
      'documentation',
    );
    expect(classifyPageType(page(ld('SearchResultsPage'), paragraphs), 'https://a.example/x')).toBe(
      'listing',
    );
    expect(classifyPageType(page(ld('CollectionPage'), paragraphs), 'https://a.example/x')).toBe(
      'collection',
    );
  });

  it('calls a page that declares many products their collection', () => {
    const products = `<script type="application/ld+json">[${['a', 'b', 'c', 'd']
      .map((name) => `{"@type":"Product","name":"${name}"}`)
      .join(',')}]</script>`;
    expect(classifyPageType(page(products, paragraphs), 'https://shop.example/x')).toBe('collection');
  });

  it('reads Open Graph product types', () => {
    expect(
      classifyPageType(page('<meta property="og:type" content="product">', ''), 'https://a.example/x'),
    ).toBe('product');
    expect(
      classifyPageType(page('<meta property="og:type" content="product.group">', ''), 'https://a.example/x'),
    ).toBe('collection');
  });

  it('reads the URL’s shape when the page declares nothing', () => {
    const plain = page('', paragraphs);
    expect(classifyPageType(plain, 'https://a.example/forums/starters/123')).toBe('forum');
    expect(classifyPageType(plain, 'https://a.example/search?q=bridge')).toBe('listing');
    expect(classifyPageType(plain, 'https://docs.a.example/setup')).toBe('documentation');
    expect(classifyPageType(plain, 'https://a.example/collections/jackets')).toBe('collection');
    expect(classifyPageType(plain, 'https://a.example/2026/03/river-towns')).toBe('article');
  });

  it('reads the body’s structure: code blocks, authored posts, titled entries', () => {
    const code = '<pre>npm install</pre><pre>npm test</pre><pre>npm start</pre>';
    expect(classifyPageType(page('', code), 'https://a.example/x')).toBe('documentation');
    const posts = '<div class="post"><p>One</p></div>'.repeat(4);
    expect(classifyPageType(page('', posts), 'https://a.example/x')).toBe('forum');
    const entries = '<div><h3><a href="/e">Entry</a></h3><p>Summary</p></div>'.repeat(6);
    expect(classifyPageType(page('', entries), 'https://a.example/x')).toBe('listing');
  });

  it('calls a run of teasers a listing, even where the page declares an article', () => {
    const head = '<meta property="og:type" content="article">';
    const teaser = (price: string) =>
      `<article><h2><a href="/journal/e">Entry</a></h2><p>A summary of the entry.${price}</p></article>`;
    expect(classifyPageType(page(head, teaser('').repeat(10)), 'https://a.example/journal/')).toBe('listing');
    // Priced cards are a shop's grid, not teasers; nine entries are not yet a run.
    expect(classifyPageType(page(head, teaser(' $12').repeat(10)), 'https://a.example/journal/')).not.toBe(
      'listing',
    );
    expect(classifyPageType(page(head, teaser('').repeat(9)), 'https://a.example/journal/')).toBe('article');
  });

  it('calls an offer page by its path a service, even where the page declares an article', () => {
    const head = '<meta property="og:type" content="article">';
    expect(classifyPageType(page(head, paragraphs), 'https://a.example/services/audits/')).toBe('service');
    expect(classifyPageType(page(head, paragraphs), 'https://a.example/pricing')).toBe('service');
    expect(classifyPageType(page(head, paragraphs), 'https://a.example/field-notes/audits/')).toBe('article');
  });

  it('calls a page that says nothing of itself a service or landing page', () => {
    expect(classifyPageType(page('', paragraphs), 'https://a.example/')).toBe('service');
    expect(classifyPageType(page('', paragraphs), 'not a url')).toBe('service');
  });

  it('lets a forum that calls its threads articles be a forum', () => {
    const head = '<meta property="og:type" content="article">';
    const posts = '<div class="post"><p>One</p></div>'.repeat(4);
    expect(classifyPageType(page(head, posts), 'https://a.example/threads/42/')).toBe('forum');
  });
});

describe('isPageType', () => {
  it('accepts the seven types only', () => {
    expect(isPageType('forum')).toBe(true);
    expect(isPageType('blog')).toBe(false);
    expect(isPageType(undefined)).toBe(false);
  });

  it('reads a price with the sign before or the code after the amount', () => {
    for (const price of ['$12', '19,99 €', '12.99 EUR', '£3', '40 kr', '¥900', '15 USD', '2.000,00 zł']) {
      const body = `<h1>Heather honey</h1><p>A jar of heather honey.</p><p>${price}</p><button>Add to cart</button>`;
      expect(classifyPageType(page('', body), 'https://shop.example/heather'), price).toBe('product');
    }
  });

  it('classifies a page of one enormous number in one pass (the price pattern is linear)', () => {
    // Quadratic before: 240,000 digits took minutes and held a derivation worker.
    const digits = `<p>${'7'.repeat(240_000)} kr</p>`;
    expect(isPageType(classifyPageType(page('', digits), 'https://a.example/n'))).toBe(true);
  });
});
