import { gunzipSync } from 'node:zlib';

/** A gzipped sitemap may inflate to at most this much (the sitemap protocol allows 50 MB). */
export const MAX_INFLATED_SITEMAP_BYTES = 50 * 1024 * 1024;

/**
 * The XML text of a fetched sitemap. `sitemap.xml.gz` files arrive as gzip bytes (often served as
 * application/octet-stream, so the magic number decides, not the name or the header). Inflation is
 * capped so a small hostile file cannot expand into gigabytes; an unreadable file is no sitemap.
 */
export function sitemapText(bytes: Buffer): string {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes.toString('utf8');
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_INFLATED_SITEMAP_BYTES }).toString('utf8');
  } catch {
    return '';
  }
}
