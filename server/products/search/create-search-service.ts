import { redactionSettings } from '../../../shared/api/v2/redact-pii';
import { redactText } from '../../scrape/enrich';
import { randomUUID } from 'node:crypto';
import type { SearchCategory } from '../../../shared/api/v2/search-request';
import type { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import { TabhiveError, errors } from '../../platform/errors';
import type { Log } from '../../platform/log';
import type { Scraper, ScrapeDocument, ScrapeMetadata } from '../../scrape/types';
import { StoreUnavailableError, type CreditLedgerStore, type TeamStore } from '../../platform/store';
import { ensureCreditsLeft } from '../../platform/teams';
import { engineQuery } from './engine-query';
import { filterResults } from './filter-results';
import { parseQuery } from '../../platform/text';
import type { NewsResult, SearchProvider, SearchResults, SearchSource, WebResult } from './search-provider';

/** Scraped results may come from the cache up to this age, whatever the caller says (docs/wire-contract.md §10). */
export const SEARCH_SCRAPE_MAX_AGE_MS = 3 * 24 * 60 * 60 * 1000;

const SCRAPE_MARGIN_MS = 2_000;

export interface SearchInput {
  query: string;
  sources: readonly SearchSource[];
  categories: readonly SearchCategory[];
  includeDomains?: readonly string[] | undefined;
  excludeDomains?: readonly string[] | undefined;
  limit: number;
  tbs?: string | undefined;
  filter?: string | undefined;
  lang: string;
  country: string;
  location?: string | undefined;
  timeout: number;
  ignoreInvalidURLs: boolean;
  /** Results are scraped when `formats` is not empty. */
  scrapeOptions: ScrapeOptionsV2;
}

/** A result whose page could not be scraped: its search fields and why (docs/wire-contract.md §13.2). */
export interface FailedScrape {
  metadata: Pick<ScrapeMetadata, 'statusCode' | 'error' | 'proxyUsed'>;
}

export type ScrapedWebResult = WebResult & (Partial<ScrapeDocument> | FailedScrape);
export type ScrapedNewsResult = NewsResult & (Partial<ScrapeDocument> | FailedScrape);

export interface SearchAnswer {
  data: {
    web?: ScrapedWebResult[];
    news?: ScrapedNewsResult[];
    images?: SearchResults['images'];
  };
  creditsUsed: number;
  warnings: string[];
}

export interface SearchService {
  search(input: SearchInput, teamId: string): Promise<SearchAnswer>;
}

/** Books a search once; during a database outage the charge is logged as lost, as for scrapes. */
async function chargeSearch(
  { creditLedger, log }: { creditLedger: CreditLedgerStore | undefined; log: Log },
  teamId: string,
  credits: number,
): Promise<void> {
  if (creditLedger === undefined) return;
  try {
    await creditLedger.charge({ key: `search:${randomUUID()}`, teamId, credits, reason: 'search' });
  } catch (err) {
    if (!(err instanceof StoreUnavailableError)) throw err;
    log.warn('credit ledger unavailable; search not charged', { teamId, credits, error: err.message });
  }
}

const failedScrape = (err: unknown): FailedScrape => ({
  metadata: {
    statusCode: err instanceof TabhiveError && err.code === 'URL_BLOCKED' ? 403 : 0,
    error: err instanceof Error ? err.message : String(err),
    proxyUsed: 'basic',
  },
});

/**
 * Search (docs/wire-contract.md §13): the configured provider finds results, they are cut to what was asked,
 * and, with scrape formats, every web and news result is scraped through the ordinary scrape
 * pipeline. The whole search is booked once on the team's ledger. Past `timeout` the caller gets
 * a 408 SCRAPE_TIMEOUT; a provider that fails gives no results and a warning, as Firecrawl answers
 * when every provider failed.
 */
export function createSearchService({
  provider,
  scraper,
  creditLedger,
  teams,
  allowPrivateNetworks,
  log,
}: {
  provider: SearchProvider;
  /** The scraper; results are `product-request` pages: the search books their credits itself. */
  scraper: Scraper;
  creditLedger?: CreditLedgerStore | undefined;
  /** For the credit check: a team with an allowance needs a credit left to search. */
  teams?: TeamStore | undefined;
  allowPrivateNetworks: boolean;
  log: Log;
}): SearchService {
  async function run(
    input: SearchInput,
    teamId: string,
    signal: AbortSignal,
    deadline: number,
  ): Promise<SearchAnswer> {
    const text = engineQuery(input);
    const parsed = parseQuery(text);
    const warnings: string[] = [];
    let found: SearchResults = {};
    try {
      found = await provider.search({
        text,
        parsed,
        sources: input.sources,
        // Engines are asked for twice the limit so that filtering still leaves enough (docs/wire-contract.md §13.1).
        limit: Math.min(2 * input.limit, 100),
        teamId,
        tbs: input.tbs,
        filter: input.filter,
        lang: input.lang,
        country: input.country,
        location: input.location,
        signal,
      });
    } catch (err) {
      if (signal.aborted) throw errors.scrapeTimeout();
      log.warn('search provider failed', { provider: provider.name, error: String(err) });
      warnings.push(
        `The ${provider.name} search provider failed: ${err instanceof Error ? err.message : String(err)}.`,
      );
    }
    if (provider.name === 'local' && input.sources.some((source) => source !== 'web')) {
      warnings.push(
        'The local index holds web pages only; news and images need SEARCH_PROVIDER=searxng or browser.',
      );
    }
    const { results, removedInvalid } = filterResults(found, {
      sources: input.sources,
      limit: input.limit,
      query: parsed,
      categories: input.categories,
      ignoreInvalidURLs: input.ignoreInvalidURLs,
      allowPrivateNetworks,
    });
    if (removedInvalid > 0)
      warnings.push(`${removedInvalid} result(s) with URLs that cannot be scraped were removed.`);
    const images = results.images?.length ?? 0;

    if (input.scrapeOptions.formats.length === 0) {
      return {
        data: results,
        creditsUsed: (results.web?.length ?? 0) + (results.news?.length ?? 0) + images,
        warnings,
      };
    }

    const scrapeOne = async <R extends { url?: string }>(
      result: R,
    ): Promise<{ item: R & (Partial<ScrapeDocument> | FailedScrape); credits: number; failed?: true }> => {
      if (result.url === undefined) return { item: result, credits: 1 };
      // A page that is too slow fails on its own a little before the whole search would (408),
      // so the other results are still answered.
      const left = deadline - Date.now();
      const remaining = Math.max(1, left - Math.min(SCRAPE_MARGIN_MS, left / 10));
      try {
        const document = await scraper.scrape(
          {
            ...input.scrapeOptions,
            url: { raw: result.url, url: new URL(result.url).href },
            timeout: Math.min(input.scrapeOptions.timeout ?? input.timeout, remaining),
            maxAge: SEARCH_SCRAPE_MAX_AGE_MS,
          },
          { teamId, admission: 'product-request' },
        );
        return {
          item: { ...document, ...redactedResult(result, input.scrapeOptions.redactPII) },
          credits: document.metadata.creditsUsed,
        };
      } catch (err) {
        // A result that failed is still answered, and counted as its placeholder document (docs/wire-contract.md §9).
        return { item: { ...result, ...failedScrape(err) }, credits: 1, failed: true };
      }
    };
    const [web, news] = await Promise.all([
      Promise.all((results.web ?? []).map(scrapeOne)),
      Promise.all((results.news ?? []).map(scrapeOne)),
    ]);
    const data: SearchAnswer['data'] = {
      ...(web.length > 0 ? { web: web.map(({ item }) => item) } : {}),
      ...(news.length > 0 ? { news: news.map(({ item }) => item) } : {}),
      ...(results.images === undefined ? {} : { images: results.images }),
    };
    const credits = [...web, ...news].reduce((sum, { credits: c }) => sum + c, 0) + images;
    const failed = [...web, ...news].filter(({ failed }) => failed).length;
    if (failed > 0) {
      warnings.push(`${failed} result(s) could not be scraped; their metadata.error says why.`);
    }
    return { data, creditsUsed: credits, warnings };
  }

  return {
    async search(input, teamId) {
      if (teams !== undefined) await ensureCreditsLeft(teams, teamId);
      const controller = new AbortController();
      const deadline = Date.now() + input.timeout;
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(errors.scrapeTimeout());
        }, input.timeout);
      });
      try {
        const answer = await Promise.race([run(input, teamId, controller.signal, deadline), expired]);
        if (answer.creditsUsed > 0) {
          await chargeSearch({ creditLedger, log }, teamId, answer.creditsUsed);
        }
        if (Object.keys(answer.data).length === 0 && answer.warnings.length === 0) {
          answer.warnings.push('No search results found');
        }
        return answer;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * The engine's title and description of a result, redacted as its page was: they travel beside the
 * page's document, and would otherwise carry what the caller asked to have taken out (names and
 * places need the page's model pass, so only the patterns apply here).
 */
function redactedResult<R extends object>(result: R, option: ScrapeOptionsV2['redactPII']): R {
  const settings = redactionSettings(option);
  if (settings === undefined) return result;
  const redacted = { ...result } as Record<string, unknown>;
  for (const field of ['title', 'description'] as const) {
    const value = redacted[field];
    if (typeof value === 'string') redacted[field] = redactText(value, settings);
  }
  // The same fields, with string values replaced by strings.
  return redacted as R;
}
