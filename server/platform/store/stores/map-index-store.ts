import { createHash } from 'node:crypto';
import type { Collection, Database, StoredDocument } from '../database';

/** URLs not seen again for this long drop out of the map index. */
export const MAP_INDEX_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface MapIndexEntry extends StoredDocument {
  /** Host (and port) the URL belongs to, lower-case, without a leading `www.`. */
  site: string;
  /** The site's registrable domain (last two labels, no port): /map with subdomains asks for it. */
  domain: string;
  url: string;
  title?: string;
  description?: string;
  /** Listed in one of the site's sitemaps (sticky, as `onPage`). */
  inSitemap?: boolean;
  /** Scraped, or linked from a scraped page: known without any sitemap. */
  onPage?: boolean;
  /**
   * `public`: every team's maps read it, so it holds what any team could find (sitemaps' entries,
   * pages seen anonymously, without the query strings of scraped URLs: create-map-index-recorder.ts);
   * or a team: what that team's own scrapes saw (queries, its logged-in browser's pages).
   */
  scope: string;
  lastSeenAt: Date;
  expiresAt: Date;
}

export type SeenUrl = Pick<MapIndexEntry, 'site' | 'domain' | 'url' | 'scope'> & {
  title?: string;
  description?: string;
  inSitemap?: boolean;
  onPage?: boolean;
};

const entryId = (scope: string, url: string) => createHash('sha256').update(`${scope}\n${url}`).digest('hex');

/** Every URL Tabhive has seen on a site (scraped, crawled, linked or in a sitemap), for fast /map answers. */
export function createMapIndexStore(database: Database) {
  const entries: Collection<MapIndexEntry> = database.collection('map_index');

  return {
    async ensureIndexes() {
      await entries.createIndex({ name: 'site_scope_url', keys: { site: 1, scope: 1, url: 1 } });
      await entries.createIndex({ name: 'domain_scope_url', keys: { domain: 1, scope: 1, url: 1 } });
      await entries.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    /** Records URLs as seen now; a title, description or mark learnt earlier is kept when none is given. */
    async record(seen: readonly SeenUrl[], now = new Date()) {
      for (const { site, domain, url, scope, title, description, inSitemap, onPage } of seen) {
        await entries.updateOne(
          { _id: entryId(scope, url) },
          {
            $set: {
              site,
              domain,
              url,
              scope,
              lastSeenAt: now,
              expiresAt: new Date(now.getTime() + MAP_INDEX_RETENTION_MS),
              ...(title === undefined ? {} : { title }),
              ...(description === undefined ? {} : { description }),
              ...(inSitemap === true ? { inSitemap } : {}),
              ...(onPage === true ? { onPage } : {}),
            },
          },
          { upsert: true },
        );
      }
    },

    /** The site's URLs visible from `scopes`, in URL order. */
    list({ site, scopes, limit }: { site: string; scopes: readonly string[]; limit: number }) {
      return entries.find({ site, scope: { $in: [...scopes] } }, { sort: { url: 1 }, limit });
    },

    /** Every URL of a registrable domain (all its subdomains) visible from `scopes`, in URL order. */
    listDomain({ domain, scopes, limit }: { domain: string; scopes: readonly string[]; limit: number }) {
      return entries.find({ domain, scope: { $in: [...scopes] } }, { sort: { url: 1 }, limit });
    },

    async purgeExpired(now = new Date()) {
      return (await entries.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type MapIndexStore = ReturnType<typeof createMapIndexStore>;
