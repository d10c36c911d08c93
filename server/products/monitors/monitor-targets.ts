import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  DEFAULT_MONITOR_CRAWL_LIMIT,
  DEFAULT_MONITOR_SEARCH_RESULTS,
  MAX_MONITOR_CRAWL_LIMIT,
  MonitorTargetInput,
} from '../../../shared/api/v2/monitor-request';
import { CrawlRequestV2 } from '../../../shared/api/v2/crawl-request';
import { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { toIssueDetails } from '../../../shared/api/zod-issues';
import { errors } from '../../platform/errors';
import { crawlSpecFromV2, type JobSpec } from '../jobs';
import { monitorErrors } from './monitor-errors';

/** A target as stored and answered: the caller's fields, with its id. */
export type StoredTarget = MonitorTargetInput & { id: string };

/** What a check runs for a target, parsed from the stored target with the monitor's history tag. */
export type RunnableTarget =
  | { id: string; type: 'scrape'; requests: ScrapeRequestV2[]; jsonMode: boolean }
  | { id: string; type: 'crawl'; spec: JobSpec; jsonMode: boolean }
  | {
      id: string;
      type: 'search';
      queries: string[];
      maxResults: number;
      tbs: string | undefined;
      includeDomains: string[] | undefined;
      excludeDomains: string[] | undefined;
      scrapeOptions: ScrapeOptionsV2;
    };

/** Keys of crawlOptions that the monitor itself sets. */
const RESERVED_CRAWL_KEYS = ['url', 'scrapeOptions', 'webhook', 'prompt'];

/** Google's `tbs` for a search window; windows under an hour use the hour filter, the finest there is. */
const WINDOW_TBS: Record<string, string> = {
  '5m': 'qdr:h',
  '15m': 'qdr:h',
  '1h': 'qdr:h',
  '6h': 'qdr:h6',
  '24h': 'qdr:d',
  '7d': 'qdr:w',
};

/** The change history key of a target's pages: its own, apart from the team's other scrapes. */
export const historyTag = (monitorId: string, targetId: string) => `monitor:${monitorId}:${targetId}`;

/**
 * The caller's scrape options with the changeTracking format every check needs: markdown, and
 * changeTracking under the target's tag, keeping the caller's modes, schema and prompt when the
 * caller asked for it (git-diff when no mode was named, so each change has its text diff).
 */
function withChangeTracking(
  options: Record<string, unknown> | undefined,
  tag: string,
): Record<string, unknown> {
  if (options?.formats !== undefined && !Array.isArray(options.formats)) return { ...options }; // a 400 from the schema
  const given = (options?.formats as unknown[] | undefined) ?? ['markdown'];
  const formats = given.map((format) => (typeof format === 'string' ? { type: format } : format));
  const typeOf = (format: unknown) => (format as { type?: unknown } | null)?.type;
  const tracking = formats.find((format) => typeOf(format) === 'changeTracking') as
    Record<string, unknown> | undefined;
  const modes = Array.isArray(tracking?.modes) && tracking.modes.length > 0 ? tracking.modes : ['git-diff'];
  const rest = formats.filter((format) => typeOf(format) !== 'changeTracking');
  if (!rest.some((format) => typeOf(format) === 'markdown')) rest.unshift({ type: 'markdown' });
  return { ...options, formats: [...rest, { ...tracking, type: 'changeTracking', modes, tag }] };
}

function parseOrThrow<S extends z.ZodType>(
  schema: S,
  value: unknown,
  index: number,
  path: ReadonlyArray<string | number>,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = toIssueDetails(parsed.error).map((issue) => ({
    ...issue,
    path: ['targets', index, ...path, ...issue.path],
  }));
  throw errors.badRequest(details);
}

const jsonModeOf = (options: ScrapeOptionsV2) =>
  options.formats.some((format) => format.type === 'changeTracking' && format.modes.includes('json'));

/** A stored target as a check runs it; throws a 400 naming `index` when it is not valid. */
export function runnableTarget(target: StoredTarget, monitorId: string, index = 0): RunnableTarget {
  const tag = historyTag(monitorId, target.id);
  switch (target.type) {
    case 'scrape': {
      const options = withChangeTracking(target.scrapeOptions, tag);
      const requests = target.urls.map((url, urlIndex) =>
        parseOrThrow(ScrapeRequestV2, { ...options, url }, index, ['urls', urlIndex]),
      );
      return {
        id: target.id,
        type: 'scrape',
        requests,
        jsonMode: requests.some((request) => jsonModeOf(request)),
      };
    }
    case 'crawl': {
      const crawlOptions = target.crawlOptions ?? {};
      const reserved = RESERVED_CRAWL_KEYS.find((key) => key in crawlOptions);
      if (reserved !== undefined) {
        throw monitorErrors.invalidTarget(
          index,
          `crawlOptions.${reserved} is set by the monitor; give it on the target`,
          ['crawlOptions', reserved],
        );
      }
      const limit = crawlOptions.limit ?? DEFAULT_MONITOR_CRAWL_LIMIT;
      if (typeof limit === 'number' && limit > MAX_MONITOR_CRAWL_LIMIT) {
        throw monitorErrors.invalidTarget(
          index,
          `A monitor's crawl may take at most ${MAX_MONITOR_CRAWL_LIMIT} pages per check`,
          ['crawlOptions', 'limit'],
        );
      }
      const request = parseOrThrow(
        CrawlRequestV2,
        {
          ...crawlOptions,
          limit,
          url: target.url,
          scrapeOptions: withChangeTracking(target.scrapeOptions, tag),
        },
        index,
        [],
      );
      return {
        id: target.id,
        type: 'crawl',
        spec: crawlSpecFromV2(request),
        jsonMode: jsonModeOf(request.scrapeOptions),
      };
    }
    case 'search':
      return {
        id: target.id,
        type: 'search',
        queries: target.queries,
        maxResults: target.maxResults ?? DEFAULT_MONITOR_SEARCH_RESULTS,
        tbs: target.searchWindow === undefined ? undefined : WINDOW_TBS[target.searchWindow],
        includeDomains: target.includeDomains,
        excludeDomains: target.excludeDomains,
        scrapeOptions: ScrapeOptionsV2.parse(withChangeTracking(undefined, tag)),
      };
  }
}

/** The caller's targets with ids, each checked as a check will run it (a 400 otherwise). */
export function prepareTargets(inputs: readonly MonitorTargetInput[], monitorId: string): StoredTarget[] {
  const targets = inputs.map((target) => ({ ...target, id: target.id ?? randomUUID() }) as StoredTarget);
  targets.forEach((target, index) => runnableTarget(target, monitorId, index));
  return targets;
}

/** Stored targets, parsed where they are read back. */
export function readTargets(stored: readonly unknown[]): StoredTarget[] {
  return z.array(MonitorTargetInput.and(z.object({ id: z.string() }))).parse(stored) as StoredTarget[];
}

/** Pages a check of these targets may scrape at most, for the credit estimate. */
export function pagesPerCheck(targets: readonly StoredTarget[]): number {
  return targets.reduce((sum, target) => {
    if (target.type === 'scrape') return sum + target.urls.length;
    if (target.type === 'search')
      return sum + target.queries.length * (target.maxResults ?? DEFAULT_MONITOR_SEARCH_RESULTS);
    const limit = target.crawlOptions?.limit;
    return sum + (typeof limit === 'number' ? limit : DEFAULT_MONITOR_CRAWL_LIMIT);
  }, 0);
}
