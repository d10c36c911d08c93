/** `www.example.com` and `example.com` are one site to a caller. */
const siteOf = (url: URL) => `${url.protocol}//${url.host.replace(/^www\./, '')}`;

/**
 * The pages `strictConstrainToURLs` allows: each given URL, and the pages below it (same site, a
 * path that continues it: `/docs` covers `/docs`, `/docs/` and `/docs/intro`, not `/docsearch`).
 * Query and fragment do not matter. Without `strict`, every URL is in scope (the URL policy still
 * applies in the scraper).
 */
export function createUrlScope(urls: readonly string[], strict: boolean) {
  const roots = urls.map((raw) => {
    const url = new URL(raw);
    return { site: siteOf(url), path: url.pathname.replace(/\/+$/, '') };
  });
  return {
    strict,
    allows(raw: string): boolean {
      if (!strict) return true;
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return false;
      }
      const site = siteOf(url);
      const path = url.pathname;
      return roots.some(
        (root) =>
          root.site === site && (root.path === '' || path === root.path || path.startsWith(`${root.path}/`)),
      );
    },
    describe: () => urls.join(', '),
  };
}

export type UrlScope = ReturnType<typeof createUrlScope>;
