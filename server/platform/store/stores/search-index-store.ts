import { createHash } from 'node:crypto';
import type { Collection, Database, Filter, StoredDocument } from '../database';

/** Pages not scraped or saved again for this long leave a team's search index. */
export const SEARCH_INDEX_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

/** How a page came into the index: a scrape (single, crawl, batch, search) or a person saving it. */
export type IndexedPageSource = 'scrape' | 'donated';

export interface IndexedPage extends StoredDocument {
  teamId: string;
  url: string;
  /** The host and every parent domain (`docs.a.com`, `a.com`, `com`), without `www.`: what `site:` asks for. */
  domains: string[];
  title: string;
  description: string;
  /** The page's Markdown, cut to a bounded length. */
  text: string;
  /** Distinct words of URL, title, description and text (bounded): what a query's words look up. */
  terms: string[];
  /** Words in title, description and text: the document length of the ranking. */
  length: number;
  source: IndexedPageSource;
  indexedAt: Date;
  expiresAt: Date;
}

export type PageToIndex = Omit<IndexedPage, '_id' | 'indexedAt' | 'expiresAt'>;

const pageId = (teamId: string, url: string) =>
  createHash('sha256').update(`${teamId}\n${url}`).digest('hex');

/**
 * The local search index: one document per team and URL, replaced whenever the page is scraped
 * again. Lookups go through the `terms` and `domains` arrays (an ordinary multikey index, inside
 * the portable subset); the ranking itself happens in the server (rank-pages.ts).
 */
export function createSearchIndexStore(database: Database) {
  const pages: Collection<IndexedPage> = database.collection('search_index');

  return {
    async ensureIndexes() {
      await pages.createIndex({ name: 'team_terms', keys: { teamId: 1, terms: 1 } });
      await pages.createIndex({ name: 'team_domains', keys: { teamId: 1, domains: 1 } });
      await pages.createIndex({ name: 'team_indexedAt', keys: { teamId: 1, indexedAt: -1 } });
      await pages.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    /** Adds the page to its team's index, or replaces the earlier version of the same URL. */
    async put(page: PageToIndex, now = new Date()) {
      const _id = pageId(page.teamId, page.url);
      const document: IndexedPage = {
        _id,
        ...page,
        indexedAt: now,
        expiresAt: new Date(now.getTime() + SEARCH_INDEX_RETENTION_MS),
      };
      await pages.replaceOne({ _id }, document, { upsert: true });
    },

    get: (teamId: string, url: string) => pages.findOne({ _id: pageId(teamId, url) }),

    /**
     * A team's pages that hold any of `terms` (all pages when none are given) and lie on any of
     * `domains` (anywhere when none are given), newest first, at most `limit`.
     */
    candidates({
      teamId,
      terms,
      domains,
      limit,
      indexedFrom,
      indexedTo,
      now = new Date(),
    }: {
      teamId: string;
      terms: readonly string[];
      domains: readonly string[];
      limit: number;
      /** Only pages (last) indexed in this window. */
      indexedFrom?: Date | undefined;
      indexedTo?: Date | undefined;
      now?: Date;
    }) {
      const filter: Filter = { teamId, expiresAt: { $gt: now } };
      if (indexedFrom !== undefined || indexedTo !== undefined) {
        filter.indexedAt = {
          ...(indexedFrom === undefined ? {} : { $gte: indexedFrom }),
          ...(indexedTo === undefined ? {} : { $lte: indexedTo }),
        };
      }
      if (terms.length > 0) filter.terms = { $in: [...terms] };
      if (domains.length > 0) filter.domains = { $in: [...domains] };
      return pages.find(filter, { sort: { indexedAt: -1 }, limit });
    },

    count: (teamId: string, now = new Date()) => pages.countDocuments({ teamId, expiresAt: { $gt: now } }),

    async purgeExpired(now = new Date()) {
      return (await pages.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type SearchIndexStore = ReturnType<typeof createSearchIndexStore>;
