import { describe, expect, it } from 'vitest';
import { extractImages } from '../../../shared/html/extract-images';
import { parseHtml } from '../../../shared/html/parse-html';

describe('extractImages', () => {
  it('lists og:image first, then every image source once, absolute', () => {
    const document = parseHtml(`<html><head>
      <meta property="og:image" content="/social.png">
      <meta name="twitter:image" content="https://cdn.test/social.png">
    </head><body>
      <img src="a.jpg" srcset="a.jpg 1x, a@2x.jpg 2x">
      <img src="data:image/png;base64,AAAA" data-src="/lazy.jpg">
      <picture><source srcset="/hero.webp 800w, /hero-1600.webp 1600w"><img src="/hero.jpg"></picture>
      <video poster="/poster.jpg"></video>
      <img src="a.jpg">
      <img src="https://cdn.test/img,with,commas.jpg">
    </body></html>`);
    expect(extractImages(document, 'https://site.test/blog/post')).toEqual([
      'https://site.test/social.png',
      'https://cdn.test/social.png',
      'https://site.test/blog/a.jpg',
      'https://site.test/blog/a@2x.jpg',
      'https://site.test/lazy.jpg',
      'https://site.test/hero.webp',
      'https://site.test/hero-1600.webp',
      'https://site.test/hero.jpg',
      'https://site.test/poster.jpg',
      'https://cdn.test/img,with,commas.jpg',
    ]);
  });

  it('gives an empty list for a page without images', () => {
    expect(extractImages(parseHtml('<p>Text only</p>'), 'https://site.test/')).toEqual([]);
  });
});
