/**
 * `<loc>` entries of a sitemap or sitemap index. Read with a plain scan rather than an XML parser:
 * sitemaps in the wild are often not well-formed, and only the locations matter.
 */
export function parseSitemap(xml: string): { pages: string[]; sitemaps: string[] } {
  const isIndex = /<sitemapindex[\s>]/i.test(xml);
  const pages: string[] = [];
  const sitemaps: string[] = [];
  for (const match of xml.matchAll(/<loc>\s*(?:<!\[CDATA\[)?([^<\]]*?)(?:\]\]>)?\s*<\/loc>/gi)) {
    const loc = decodeEntities(match[1] ?? '');
    if (loc === '') continue;
    // Firecrawl treats .xml entries of a urlset as nested sitemaps too (docs/wire-contract.md §8).
    if (isIndex || /\.xml(\.gz)?$/i.test(new URL(loc, 'http://x').pathname)) sitemaps.push(loc);
    else pages.push(loc);
  }
  return { pages, sitemaps };
}

function decodeEntities(text: string): string {
  return text
    .trim()
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
