import { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import { TabhiveError } from '../../platform/errors';
import { MAP_CREDITS, type Mapper, siteMapOptions, normalizeMapUrl } from '../map';
import type { SearchService } from '../search';
import {
  EXTRACT_SEARCH_RESULTS,
  EXTRACT_SEARCH_TIMEOUT_MS,
  MAX_EXTRACT_PAGES,
  MAX_PAGES_PER_WILDCARD,
  MAX_SEARCH_QUERY_LENGTH,
  WILDCARD_MAP_TIMEOUT_MS,
} from './extract-limits';
import type { ExtractSpec } from './extract-spec';

/** The pages a job reads, in the order their data is merged, and what finding them cost. */
export interface PagePlan {
  urls: string[];
  warnings: string[];
  /** Credits the site maps and the search booked (each books its own, as the routes do). */
  credits: number;
}

/** A map asks for more than it may use, so that it can tell whether the cap cut pages. */
const MAP_LOOKAHEAD = 4;

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** One key per page, as a map names it: `…/docs/` and `…/docs` are the same page. */
const pageKey = (url: string) => normalizeMapUrl(url, { ignoreQueryParameters: false })?.href ?? url;

/**
 * Expands the job's targets into pages: a page URL as it is; a wildcard into its start URL and
 * what the site map finds under that path (same site, subdomains with `includeSubdomains`), at
 * most MAX_PAGES_PER_WILDCARD; then, with `enableWebSearch`, the top results of a search for the
 * prompt. At most MAX_EXTRACT_PAGES in all, each URL once. A map or search that fails costs the
 * pages it would have given, with a warning, not the job.
 */
export async function planPages(
  spec: ExtractSpec,
  {
    teamId,
    mapper,
    search,
    deadline,
    signal,
  }: {
    teamId: string;
    mapper?: Mapper | undefined;
    search?: SearchService | undefined;
    /** Past this time (ms since the epoch), no further map or search starts. */
    deadline: number;
    signal: AbortSignal;
  },
): Promise<PagePlan> {
  const urls: string[] = [];
  const seen = new Set<string>();
  const warnings: string[] = [];
  let credits = 0;
  let cutByTotal = 0;
  const unmapped: string[] = [];
  /** Whether another map or search may start: the pages are not all planned, and there is time. */
  const room = () => urls.length < MAX_EXTRACT_PAGES && Date.now() < deadline && !signal.aborted;
  const add = (url: string) => {
    if (seen.has(pageKey(url))) return false;
    if (urls.length >= MAX_EXTRACT_PAGES) {
      cutByTotal += 1;
      return false;
    }
    seen.add(pageKey(url));
    urls.push(url);
    return true;
  };

  for (const target of spec.targets) {
    if (!target.wildcard) {
      add(target.url);
      continue;
    }
    if (!room()) {
      unmapped.push(`${target.url}*`);
      continue;
    }
    let found: string[] = [];
    if (mapper === undefined) {
      warnings.push(`${target.url}* was read as its start page alone: this server has no site map.`);
    } else {
      try {
        const links = await mapper.map(
          siteMapOptions(target.url, {
            includeSubdomains: spec.includeSubdomains,
            limit: MAX_PAGES_PER_WILDCARD * MAP_LOOKAHEAD,
            timeout: Math.max(1, Math.min(WILDCARD_MAP_TIMEOUT_MS, deadline - Date.now())),
            ...(spec.scrapeOptions.location === undefined ? {} : { location: spec.scrapeOptions.location }),
          }),
          teamId,
        );
        credits += MAP_CREDITS;
        found = links.map((link) => link.url);
      } catch (err) {
        // A team out of credits is the job's problem, not this wildcard's.
        if (err instanceof TabhiveError && err.kind === 'insufficient-credits') throw err;
        warnings.push(
          `The site map of ${target.url}* failed (${reason(err)}); its start page alone was read.`,
        );
      }
    }
    const start = pageKey(target.url);
    const site = [target.url, ...found.filter((url) => pageKey(url) !== start)];
    const fresh = site.filter((url) => !seen.has(pageKey(url)));
    let taken = 0;
    for (const url of fresh.slice(0, MAX_PAGES_PER_WILDCARD)) if (add(url)) taken += 1;
    if (fresh.length > MAX_PAGES_PER_WILDCARD) {
      const more = found.length >= MAX_PAGES_PER_WILDCARD * MAP_LOOKAHEAD ? ' or more' : '';
      warnings.push(
        `${target.url}* covers ${fresh.length}${more} pages; the first ${taken} were read (at most ${MAX_PAGES_PER_WILDCARD} per wildcard URL).`,
      );
    }
  }

  if (spec.enableWebSearch && spec.prompt !== undefined) {
    if (!room()) {
      warnings.push(
        'The web search for the prompt was not made: the page cap or the time limit was reached.',
      );
    } else if (search === undefined) {
      warnings.push('enableWebSearch was not used: this server has no search.');
    } else {
      try {
        const answer = await search.search(
          {
            query: spec.prompt.slice(0, MAX_SEARCH_QUERY_LENGTH),
            sources: ['web'],
            categories: [],
            limit: EXTRACT_SEARCH_RESULTS,
            lang: 'en',
            country: 'us',
            timeout: Math.max(1, Math.min(EXTRACT_SEARCH_TIMEOUT_MS, deadline - Date.now())),
            ignoreInvalidURLs: true,
            scrapeOptions: ScrapeOptionsV2.parse({ formats: [] }),
          },
          teamId,
        );
        credits += answer.creditsUsed;
        const results = (answer.data.web ?? []).map((result) => result.url);
        for (const url of results) add(url);
        if (results.length === 0) warnings.push('The web search for the prompt found no pages.');
      } catch (err) {
        if (err instanceof TabhiveError && err.kind === 'insufficient-credits') throw err;
        warnings.push(`The web search for the prompt failed (${reason(err)}).`);
      }
    }
  }

  if (unmapped.length > 0) {
    const more = unmapped.length > 10 ? ` and ${unmapped.length - 10} more` : '';
    warnings.push(
      `These wildcard URLs were not read, the page cap or the time limit was reached first: ${unmapped.slice(0, 10).join(', ')}${more}.`,
    );
  }
  if (cutByTotal > 0) {
    warnings.push(
      `${cutByTotal} more page(s) were left out: an extract reads at most ${MAX_EXTRACT_PAGES} pages.`,
    );
  }
  return { urls, warnings, credits };
}
