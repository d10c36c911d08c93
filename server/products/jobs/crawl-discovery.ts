import type { Egress } from '../../platform/egress';
import { parseSitemap } from './parse-sitemap';
import { parseRobotsTxt, type RobotsRules } from './robots-txt';
import { sitemapText } from './sitemap-text';

const FETCH_TIMEOUT_MS = 10_000;
const MAX_ROBOTS_BYTES = 512 * 1024;
const MAX_SITEMAP_BYTES = 10 * 1024 * 1024;
/** Sitemaps fetched per crawl at most (Firecrawl: about 20). */
const MAX_SITEMAPS = 20;

/**
 * Who reads a site's files: the server's egress, or a team's reader that sends the URLs of the
 * team's donated browser there (scrape/capture site-files.ts).
 */
export type SiteFileReader = Pick<Egress, 'get'>;

/** robots.txt of an origin; none (everything allowed) when it cannot be fetched or is not a 2xx. */
export async function fetchRobots(egress: SiteFileReader, origin: string): Promise<RobotsRules | undefined> {
  try {
    const response = await egress.get(`${origin}/robots.txt`, {
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBytes: MAX_ROBOTS_BYTES,
    });
    return response.status >= 200 && response.status < 300 ? parseRobotsTxt(response.body) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Page URLs from a site's sitemaps: `<start>/sitemap.xml` (or the start URL itself when it is
 * one), the `Sitemap:` lines of robots.txt and `<origin>/sitemap.xml`; indexes and gzipped
 * sitemaps are followed.
 */
export async function fetchSitemapUrls(
  egress: SiteFileReader,
  start: URL,
  robots: RobotsRules | undefined,
): Promise<string[]> {
  const startSitemap = start.pathname.endsWith('.xml')
    ? start.href
    : new URL('sitemap.xml', start.href.endsWith('/') ? start.href : `${start.href}/`).href;
  const queue = [startSitemap, ...(robots?.sitemaps ?? []), `${start.origin}/sitemap.xml`];
  const seen = new Set<string>();
  const pages: string[] = [];
  while (queue.length > 0 && seen.size < MAX_SITEMAPS) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    try {
      const response = await egress.get(next, { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_SITEMAP_BYTES });
      if (response.status < 200 || response.status >= 300) continue;
      const found = parseSitemap(sitemapText(response.bytes));
      pages.push(...found.pages);
      queue.push(...found.sitemaps);
    } catch {
      // A missing or unreachable sitemap only means fewer starting points.
    }
  }
  return [...new Set(pages)];
}
