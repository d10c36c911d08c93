import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { MAX_CRAWL_DELAY_S } from '../../../shared/api/crawl-delay';
import { MAX_REQUEST_TIMEOUT_MS } from '../../../shared/api/request-timeout';
import { BatchScrapeRequestV1 } from '../../../shared/api/v1/batch-scrape-request';
import { CrawlRequestV1 } from '../../../shared/api/v1/crawl-request';
import { MapRequestV1 } from '../../../shared/api/v1/map-request';
import { ScrapeRequestV1 } from '../../../shared/api/v1/scrape-request';
import { SearchRequestV1 } from '../../../shared/api/v1/search-request';
import { BatchScrapeRequestV2 } from '../../../shared/api/v2/batch-scrape-request';
import { CrawlRequestV2 } from '../../../shared/api/v2/crawl-request';
import { MapRequestV2 } from '../../../shared/api/v2/map-request';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { SearchRequestV2 } from '../../../shared/api/v2/search-request';

const TIMEOUT_MESSAGE = 'timeout must be at most 300000 ms (5 minutes)';
const DELAY_MESSAGE = 'delay must be at most 3600 seconds (1 hour)';
const url = 'https://example.com';

/** Each body that carries a `timeout`, with where the timeout goes in it. */
const timeoutBodies: Array<[string, z.ZodType, (timeout: number) => unknown, Array<string | number>]> = [
  ['v2 scrape', ScrapeRequestV2, (timeout) => ({ url, timeout }), ['timeout']],
  ['v1 scrape', ScrapeRequestV1, (timeout) => ({ url, timeout }), ['timeout']],
  ['v2 batch scrape', BatchScrapeRequestV2, (timeout) => ({ urls: [url], timeout }), ['timeout']],
  ['v1 batch scrape', BatchScrapeRequestV1, (timeout) => ({ urls: [url], timeout }), ['timeout']],
  [
    'v2 crawl',
    CrawlRequestV2,
    (timeout) => ({ url, scrapeOptions: { timeout } }),
    ['scrapeOptions', 'timeout'],
  ],
  [
    'v1 crawl',
    CrawlRequestV1,
    (timeout) => ({ url, scrapeOptions: { timeout } }),
    ['scrapeOptions', 'timeout'],
  ],
  ['v2 map', MapRequestV2, (timeout) => ({ url, timeout }), ['timeout']],
  ['v1 map', MapRequestV1, (timeout) => ({ url, timeout }), ['timeout']],
  ['v2 search', SearchRequestV2, (timeout) => ({ query: 'q', timeout }), ['timeout']],
  ['v1 search', SearchRequestV1, (timeout) => ({ query: 'q', timeout }), ['timeout']],
  [
    'v2 search scrape options',
    SearchRequestV2,
    (timeout) => ({ query: 'q', scrapeOptions: { timeout } }),
    ['scrapeOptions', 'timeout'],
  ],
];

const delayBodies: Array<[string, z.ZodType]> = [
  ['v2 crawl', CrawlRequestV2],
  ['v1 crawl', CrawlRequestV1],
  ['v2 map', MapRequestV2],
  ['v1 map', MapRequestV1],
];

const issuesOf = (schema: z.ZodType, body: unknown) => {
  const result = schema.safeParse(body);
  return result.success ? [] : result.error.issues.map(({ message, path }) => ({ message, path }));
};

describe('timeout bounds', () => {
  it.each(timeoutBodies)(
    '%s refuses a timeout past 5 minutes, up to the ones setTimeout cannot hold',
    (_name, schema, body, path) => {
      for (const timeout of [MAX_REQUEST_TIMEOUT_MS + 1, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
        expect(issuesOf(schema, body(timeout)), String(timeout)).toEqual([
          { message: TIMEOUT_MESSAGE, path },
        ]);
      }
    },
  );

  it.each(timeoutBodies)('%s accepts 1 ms and 5 minutes', (_name, schema, body) => {
    expect(issuesOf(schema, body(1))).toEqual([]);
    expect(issuesOf(schema, body(MAX_REQUEST_TIMEOUT_MS))).toEqual([]);
  });
});

describe('crawl delay bounds', () => {
  it.each(delayBodies)('%s refuses a delay past an hour', (_name, schema) => {
    for (const delay of [MAX_CRAWL_DELAY_S + 0.5, 1e300]) {
      expect(issuesOf(schema, { url, delay }), String(delay)).toEqual([
        { message: DELAY_MESSAGE, path: ['delay'] },
      ]);
    }
  });

  it.each(delayBodies)('%s accepts a tiny delay and an hour', (_name, schema) => {
    expect(issuesOf(schema, { url, delay: 1e-300 })).toEqual([]);
    expect(issuesOf(schema, { url, delay: MAX_CRAWL_DELAY_S })).toEqual([]);
  });
});
