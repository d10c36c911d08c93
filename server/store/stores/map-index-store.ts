import { createHash } from 'node:crypto';
import type { Collection, Database, StoredDocument } from '../database';

/** URLs not seen again for this long drop out of the map index. */
export const MAP_INDEX_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface MapIndexEntry extends StoredDocument {
  /** Host the URL belongs to, lower-case, without a leading `www.`: what /map asks for. */
  site: string;
  url: string;
  title?: string;
  description?: string;
  /** `public`, or the team whose logged-in browser saw the URL. */
  scope: string;
  lastSeenAt: Date;
  expiresAt: Date;
}

export type SeenUrl = Pick<MapIndexEntry, 'site' | 'url' | 'scope'> & {
  title?: string;
  description?: string;
};

const entryId = (scope: string, url: string) => createHash('sha256').update(`${scope}\n${url}`).digest('hex');

/** Every URL Tabhive has seen on a site (scraped, crawled or linked), for fast /map answers. */
export function createMapIndexStore(database: Database) {
  const entries: Collection<MapIndexEntry> = database.collection('map_index');

  return {
    async ensureIndexes() {
      await entries.createIndex({ name: 'site_scope_url', keys: { site: 1, scope: 1, url: 1 } });
      await entries.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    /** Records URLs as seen now; a title or description learnt earlier is kept when none is given. */
    async record(seen: readonly SeenUrl[], now = new Date()) {
      for (const { site, url, scope, title, description } of seen) {
        await entries.updateOne(
          { _id: entryId(scope, url) },
          {
            $set: {
              site,
              url,
              scope,
              lastSeenAt: now,
              expiresAt: new Date(now.getTime() + MAP_INDEX_RETENTION_MS),
              ...(title === undefined ? {} : { title }),
              ...(description === undefined ? {} : { description }),
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

    async purgeExpired(now = new Date()) {
      return (await entries.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type MapIndexStore = ReturnType<typeof createMapIndexStore>;
