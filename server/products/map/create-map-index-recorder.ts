import type { Log } from '../../platform/log';
import { PUBLIC_SCOPE, type MapIndexStore, type SeenUrl } from '../../platform/store';
import { carriesSecret } from './carries-secret';
import { domainOf, siteOf } from './site-names';

/** Links of one page recorded at most: navigation-heavy pages link to thousands. */
const MAX_LINKS_PER_PAGE = 2_000;
/**
 * A bare URL (no title or description) written this recently is not written again: a crawl sees
 * the same navigation links on every page, and entries live for 30 days, so their `lastSeenAt`
 * may lag this much. Remembered for this many URLs at most.
 */
const RECENT_MS = 10 * 60_000;
const MAX_RECENT = 100_000;

export interface SeenPage {
  url: string;
  title?: string | undefined;
  description?: string | undefined;
  /** Absolute links found on the page; only those on the page's own registrable domain are kept. */
  links?: readonly string[] | undefined;
  /** The team whose request saw the page: its own scope keeps the page as seen, queries included. */
  teamId: string;
  /**
   * Whether anyone asking for the URL would see the same page: captured anonymously (no logged-in
   * browser, no caller headers or actions). Only such a page adds to the public scope, and only
   * what its URL does not keep secret (publicView).
   */
  shared: boolean;
}

function seenUrl(raw: string, scope: string, extra: Partial<SeenUrl> = {}): SeenUrl | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  url.username = '';
  url.password = '';
  return { site: siteOf(url), domain: domainOf(url), url: url.href, scope, ...extra };
}

/** What an entry shows a map: its URL, title and description. */
const whatItShows = (entry: SeenUrl) => `${entry.url} ${entry.title ?? ''} ${entry.description ?? ''}`;

/** The URL without its query: what may be shown to every team. */
function withoutQuery(entry: SeenUrl): SeenUrl {
  const url = new URL(entry.url);
  url.search = '';
  return { ...entry, url: url.href };
}

/** Whether a URL's path or host holds what looks like a capability (carries-secret.ts): never public. */
const keptSecret = (entry: SeenUrl) => carriesSecret(new URL(entry.url));

/**
 * What a page adds to the public scope, which every team's map reads. Query strings carry
 * secrets (reset tokens, signed URLs, session ids), and a scrape's URL is whatever the team
 * chose: so no public URL has one. A page whose own URL had a query may be a page only that
 * query opens: it shows the other teams its bare path and nothing it showed (no title,
 * description or links). Paths carry secrets too (`/share/<token>/doc`): a page or link whose
 * path looks like one is not shown, and a page behind such a path shows nothing it links to.
 * Everything stays whole in the team's own scope.
 */
function publicView(self: SeenUrl, links: readonly SeenUrl[]): SeenUrl[] {
  const bare = withoutQuery(self);
  if (keptSecret(bare)) return [];
  if (bare.url !== self.url)
    return [{ ...bare, scope: PUBLIC_SCOPE, title: undefined, description: undefined }];
  const shared = new Map<string, SeenUrl>([[self.url, { ...self, scope: PUBLIC_SCOPE }]]);
  for (const link of links) {
    const entry = { ...withoutQuery(link), scope: PUBLIC_SCOPE };
    if (!shared.has(entry.url) && !keptSecret(entry)) shared.set(entry.url, entry);
  }
  return [...shared.values()];
}

/**
 * Feeds the map index from what Tabhive sees anyway: scraped and crawled pages (with their title,
 * description and same-site links) and the sitemaps /map reads. Writes run one batch at a time in
 * the background, so a scrape never waits for them; a failed write is logged and forgotten.
 */
export function createMapIndexRecorder({ mapIndex, log }: { mapIndex: MapIndexStore; log: Log }) {
  let chain: Promise<unknown> = Promise.resolve();
  /** Sitemap recordings under way, by start: a big sitemap is written once, not once per map meanwhile. */
  const sitemapsInFlight = new Map<string, Promise<void>>();

  /** When each bare URL (by scope, URL and flags) was last written. */
  const recent = new Map<string, number>();
  const recentKey = (entry: SeenUrl) =>
    `${entry.scope} ${entry.inSitemap === true ? 's' : '-'}${entry.onPage === true ? 'p' : '-'} ${entry.url}`;
  const isBare = (entry: SeenUrl) => entry.title === undefined && entry.description === undefined;

  const write = (entries: SeenUrl[]): Promise<void> => {
    const now = Date.now();
    const seen = entries.filter((entry) => {
      if (!isBare(entry)) return true;
      const at = recent.get(recentKey(entry));
      return at === undefined || now - at > RECENT_MS;
    });
    if (seen.length === 0) return chain.then(() => undefined);
    // Marked when queued, so the pages right behind do not queue the same links again. A written
    // entry sets all that a bare one with the same flags would: that is recent too.
    const keys = seen.map(recentKey);
    for (const key of keys) {
      recent.delete(key);
      recent.set(key, now);
    }
    for (const key of recent.keys()) {
      if (recent.size <= MAX_RECENT) break;
      recent.delete(key);
    }
    const next = chain.then(() =>
      mapIndex.record(seen).catch((err: unknown) => {
        for (const key of keys) if (recent.get(key) === now) recent.delete(key);
        log.warn('could not record URLs in the map index', { error: String(err) });
      }),
    );
    chain = next;
    return next;
  };

  return {
    /**
     * A page and its links, in the team's scope and (when shared) the public view of them; the
     * team's scope gets only what the public view does not already show it. Resolves once written.
     */
    recordPage(page: SeenPage): Promise<void> {
      const self = seenUrl(page.url, page.teamId, {
        onPage: true,
        ...(page.title ? { title: page.title } : {}),
        ...(page.description ? { description: page.description } : {}),
      });
      if (self === undefined) return Promise.resolve();
      const links = new Map<string, SeenUrl>();
      for (const link of (page.links ?? []).slice(0, MAX_LINKS_PER_PAGE)) {
        const entry = seenUrl(link, page.teamId, { onPage: true });
        if (
          entry !== undefined &&
          entry.domain === self.domain &&
          entry.url !== self.url &&
          !links.has(entry.url)
        )
          links.set(entry.url, entry);
      }
      const shared = page.shared ? publicView(self, [...links.values()]) : [];
      const shown = new Set(shared.map(whatItShows));
      const own = [self, ...links.values()].filter((entry) => !shown.has(whatItShows(entry)));
      return write([...shared, ...own]);
    },

    /**
     * URLs listed in the sitemaps read for `key` (a start URL); while one recording for the key is
     * under way, another resolves with it instead of queueing the same writes again.
     */
    recordSitemapUrls(key: string, urls: readonly string[], scope: string): Promise<void> {
      const running = sitemapsInFlight.get(key);
      if (running !== undefined) return running;
      // The public scope takes no secret-looking path, even from a sitemap anyone may read.
      const seen = urls
        .flatMap((url) => seenUrl(url, scope, { inSitemap: true }) ?? [])
        .filter((entry) => scope !== PUBLIC_SCOPE || !keptSecret(entry));
      if (seen.length === 0) return Promise.resolve();
      const done = write(seen).finally(() => sitemapsInFlight.delete(key));
      sitemapsInFlight.set(key, done);
      return done;
    },

    /** Resolves when every write queued so far has finished. */
    idle: (): Promise<void> => chain.then(() => undefined),
  };
}

export type MapIndexRecorder = ReturnType<typeof createMapIndexRecorder>;
