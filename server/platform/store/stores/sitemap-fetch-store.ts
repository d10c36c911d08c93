import type { Collection, Database, StoredDocument } from '../database';

/** Sitemaps read for /map are trusted this long before they are fetched again (Firecrawl: 48 h, docs/wire-contract.md §10). */
export const SITEMAP_REUSE_MS = 48 * 60 * 60 * 1000;

export interface SitemapFetch extends StoredDocument {
  /** `_id` is the origin whose sitemaps were read, e.g. `https://example.com`. */
  fetchedAt: Date;
  /** Page URLs the sitemaps listed; their entries are in the map index, marked `inSitemap`. */
  pages: number;
  expiresAt: Date;
}

/** When each origin's sitemaps were last read into the map index, so repeated maps skip the fetch. */
export function createSitemapFetchStore(database: Database) {
  const fetches: Collection<SitemapFetch> = database.collection('sitemap_fetches');

  return {
    async ensureIndexes() {
      await fetches.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    /** The origin's last read, when it is recent enough to reuse. */
    fresh: (origin: string, now = new Date()) => fetches.findOne({ _id: origin, expiresAt: { $gt: now } }),

    async markFetched(origin: string, pages: number, now = new Date()) {
      await fetches.replaceOne(
        { _id: origin },
        { _id: origin, fetchedAt: now, pages, expiresAt: new Date(now.getTime() + SITEMAP_REUSE_MS) },
        { upsert: true },
      );
    },

    async purgeExpired(now = new Date()) {
      return (await fetches.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type SitemapFetchStore = ReturnType<typeof createSitemapFetchStore>;
