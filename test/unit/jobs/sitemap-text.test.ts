import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseSitemap } from '../../../server/products/jobs/parse-sitemap';
import { sitemapText } from '../../../server/products/jobs/sitemap-text';

describe('sitemapText', () => {
  const xml = '<urlset><url><loc>https://site.test/a</loc></url></urlset>';

  it('reads plain and gzipped sitemaps alike', () => {
    expect(sitemapText(Buffer.from(xml))).toBe(xml);
    expect(parseSitemap(sitemapText(gzipSync(xml))).pages).toEqual(['https://site.test/a']);
  });

  it('treats a broken gzip stream as an empty sitemap', () => {
    expect(sitemapText(Buffer.from([0x1f, 0x8b, 1, 2, 3]))).toBe('');
  });
});
