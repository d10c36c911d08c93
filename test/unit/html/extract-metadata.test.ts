import { describe, expect, it } from 'vitest';
import { extractMetadata } from '../../../shared/html/extract-metadata';

const PAGE_URL = 'https://example.test/blog/post';

function page(head: string, htmlAttributes = ''): string {
  return `<!DOCTYPE html><html ${htmlAttributes}><head>${head}</head><body><p>Body</p></body></html>`;
}

describe('extractMetadata', () => {
  it('reads title, language, description, keywords and robots', () => {
    const metadata = extractMetadata(
      page(
        `<title>
          Hello   World
        </title>
        <meta name="description" content="About things">
        <meta name="keywords" content="a, b">
        <meta name="robots" content="noindex">`,
        'lang="en-GB"',
      ),
      PAGE_URL,
    );
    expect(metadata).toMatchObject({
      title: 'Hello World',
      language: 'en-GB',
      description: 'About things',
      keywords: 'a, b',
      robots: 'noindex',
    });
  });

  // Firecrawl's snips/metadata-concat.test.ts (docs/wire-contract.md §3.5).
  it('joins repeated descriptions with ", " and turns other repeated names into arrays', () => {
    const metadata = extractMetadata(
      page(`
        <meta name="description" content="First">
        <meta name="description" content="Second">
        <meta name="keywords" content="one">
        <meta name="keywords" content="two">
        <meta property="og:locale:alternate" content="de_DE">
        <meta property="og:locale:alternate" content="fr_FR">
        <meta property="article:tag" content="x">
        <meta property="article:tag" content="y">`),
      PAGE_URL,
    );
    expect(metadata.description).toBe('First, Second');
    expect(metadata.keywords).toEqual(['one', 'two']);
    expect(metadata['og:locale:alternate']).toEqual(['de_DE', 'fr_FR']);
    expect(metadata.ogLocaleAlternate).toEqual(['de_DE', 'fr_FR']);
    expect(metadata['article:tag']).toEqual(['x', 'y']);
    expect(metadata.articleTag).toBe('x');
  });

  it('always reports ogLocaleAlternate as an array', () => {
    expect(
      extractMetadata(page('<meta property="og:locale:alternate" content="de_DE">'), PAGE_URL)
        .ogLocaleAlternate,
    ).toEqual(['de_DE']);
    expect(extractMetadata(page('<title>T</title>'), PAGE_URL).ogLocaleAlternate).toEqual([]);
  });

  it('maps Open Graph, Dublin Core and article meta to their camelCase keys', () => {
    const metadata = extractMetadata(
      page(`
        <meta property="og:title" content="OG title">
        <meta property="og:description" content="OG description">
        <meta property="og:url" content="https://example.test/canonical">
        <meta property="og:image" content="https://example.test/a.png">
        <meta property="og:audio" content="https://example.test/a.mp3">
        <meta property="og:determiner" content="the">
        <meta property="og:locale" content="en_GB">
        <meta property="og:site_name" content="Example">
        <meta property="og:video" content="https://example.test/a.mp4">
        <meta name="DC.date.created" content="2020-01-01">
        <meta name="dc.date" content="2020-01-02">
        <meta name="dcterms.created" content="2020-01-03">
        <meta name="dcterms.type" content="Text">
        <meta name="dc.type" content="Article">
        <meta name="dcterms.audience" content="Everyone">
        <meta name="dcterms.subject" content="Science">
        <meta name="dc.subject" content="Physics">
        <meta name="dc.description" content="DC description">
        <meta name="dcterms.keywords" content="k1">
        <meta property="article:published_time" content="2021-05-01T10:00:00Z">
        <meta property="article:modified_time" content="2021-05-02T10:00:00Z">
        <meta property="article:section" content="News">`),
      PAGE_URL,
    );
    expect(metadata).toMatchObject({
      ogTitle: 'OG title',
      ogDescription: 'OG description',
      ogUrl: 'https://example.test/canonical',
      ogImage: 'https://example.test/a.png',
      ogAudio: 'https://example.test/a.mp3',
      ogDeterminer: 'the',
      ogLocale: 'en_GB',
      ogSiteName: 'Example',
      ogVideo: 'https://example.test/a.mp4',
      dcDateCreated: '2020-01-01',
      dcDate: '2020-01-02',
      dcTermsCreated: '2020-01-03',
      dcTermsType: 'Text',
      dcType: 'Article',
      dcTermsAudience: 'Everyone',
      dcTermsSubject: 'Science',
      dcSubject: 'Physics',
      dcDescription: 'DC description',
      dcTermsKeywords: 'k1',
      publishedTime: '2021-05-01T10:00:00Z',
      modifiedTime: '2021-05-02T10:00:00Z',
      articleSection: 'News',
    });
  });

  it('copies every named meta verbatim, whether named by name, property or itemprop', () => {
    const metadata = extractMetadata(
      page(`
        <meta charset="utf-8">
        <meta http-equiv="refresh" content="30">
        <meta name="viewport" content="width=device-width">
        <meta name="twitter:card" content="summary">
        <meta property="og:title" content="OG">
        <meta itemprop="price" content="9.99">
        <meta name="empty" content="">`),
      PAGE_URL,
    );
    expect(metadata).toMatchObject({
      viewport: 'width=device-width',
      'twitter:card': 'summary',
      'og:title': 'OG',
      price: '9.99',
    });
    expect(metadata).not.toHaveProperty('empty');
    expect(metadata).not.toHaveProperty('refresh');
  });

  it('resolves the favicon against <base href> or the page URL', () => {
    expect(extractMetadata(page('<link rel="shortcut icon" href="/favicon.ico">'), PAGE_URL).favicon).toBe(
      'https://example.test/favicon.ico',
    );
    expect(extractMetadata(page('<link rel="icon" href="img/icon.png">'), PAGE_URL).favicon).toBe(
      'https://example.test/blog/img/icon.png',
    );
    expect(
      extractMetadata(
        page('<base href="https://cdn.example.test/assets/"><link rel="Icon" href="i.svg">'),
        PAGE_URL,
      ).favicon,
    ).toBe('https://cdn.example.test/assets/i.svg');
  });

  it('reports no favicon when the page declares none', () => {
    const metadata = extractMetadata(
      page('<link rel="apple-touch-icon" href="/touch.png"><link rel="stylesheet" href="/s.css">'),
      PAGE_URL,
    );
    expect(metadata).not.toHaveProperty('favicon');
  });

  it('ignores the <title> of an inline SVG', () => {
    const html = '<html><body><svg><title>Icon</title></svg><title>Page</title></body></html>';
    expect(extractMetadata(html, PAGE_URL).title).toBe('Page');
  });

  it('prefers the <title> element over a meta named title', () => {
    const metadata = extractMetadata(
      page('<meta name="title" content="Meta title"><title>Real title</title>'),
      PAGE_URL,
    );
    expect(metadata.title).toBe('Real title');
  });

  it('keeps meta names like __proto__ and constructor as plain own keys', () => {
    const metadata = extractMetadata(
      page(`
        <meta name="__proto__" content="polluted">
        <meta name="constructor" content="c">
        <meta name="toString" content="t">
        <meta name="hasOwnProperty" content="h">`),
      PAGE_URL,
    );
    expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
    expect(Object.hasOwn(metadata, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(metadata, '__proto__')?.value).toBe('polluted');
    expect(metadata.constructor).toBe('c');
    expect(metadata.toString).toBe('t');
    expect(metadata.hasOwnProperty).toBe('h');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(metadata))).toMatchObject({ constructor: 'c' });
  });

  it('omits keys the page does not provide', () => {
    const metadata = extractMetadata('<p>No head at all</p>', PAGE_URL);
    // pageType is always there; a page that says nothing of itself is typed by its URL (/blog/…).
    expect(metadata).toEqual({ ogLocaleAlternate: [], pageType: 'article' });
  });
});
