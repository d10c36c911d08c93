import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { describeIssues } from '../../../shared/api/readable-issues';
import { CrawlRequestV2 } from '../../../shared/api/v2/crawl-request';
import { MapRequestV2 } from '../../../shared/api/v2/map-request';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { SearchRequestV2 } from '../../../shared/api/v2/search-request';
import { ScrapeRequestV1 } from '../../../shared/api/v1/scrape-request';
import { toIssueDetails, type IssueDetail } from '../../../shared/api/zod-issues';

/** The sentence a body's 400 says, as parseBody builds it: from the issues and the body sent. */
function sentenceFor(schema: z.ZodType, body: unknown): string {
  const parsed = schema.safeParse(body);
  if (parsed.success) throw new Error('expected a validation error');
  return describeIssues(toIssueDetails(parsed.error), body);
}

const scrape = (fields: Record<string, unknown>) =>
  sentenceFor(ScrapeRequestV2, { url: 'https://example.com', ...fields });

describe('describeIssues', () => {
  it('suggests the format a typo meant, in the shorthand and the object form, v1 and v2', () => {
    expect(scrape({ formats: ['markdwn'] })).toBe(
      "formats[0]: 'markdwn' is not a format; did you mean 'markdown'?",
    );
    expect(scrape({ formats: ['markdown', { type: 'RAWHTML' }] })).toBe(
      "formats[1]: 'RAWHTML' is not a format; did you mean 'rawHtml'?",
    );
    expect(sentenceFor(ScrapeRequestV1, { url: 'https://example.com', formats: ['markdwn'] })).toBe(
      "formats[0]: 'markdwn' is not a format; did you mean 'markdown'?",
    );
    expect(
      sentenceFor(CrawlRequestV2, { url: 'https://example.com', scrapeOptions: { formats: ['htlm'] } }),
    ).toBe("scrapeOptions.formats[0]: 'htlm' is not a format; did you mean 'html'?");
  });

  it('lists the allowed values when none is near', () => {
    expect(scrape({ formats: ['pdfs'] })).toMatch(
      /^formats\[0\]: 'pdfs' is not a format; expected one of markdown, html, rawHtml, links, /,
    );
    expect(sentenceFor(MapRequestV2, { url: 'https://example.com', sitemap: 'yes' })).toBe(
      "sitemap: 'yes' is not a valid sitemap; expected one of include, skip, only",
    );
    expect(scrape({ formats: [{}] })).toMatch(/^formats\[0\]\.type: is required; expected one of markdown, /);
  });

  it('says URL, type, range and required-field problems in words', () => {
    expect(sentenceFor(ScrapeRequestV2, { url: 'not a url' })).toBe('url: must be a URL');
    expect(sentenceFor(ScrapeRequestV2, { url: 'ftp://example.com/file' })).toBe(
      'url: must be an http:// or https:// URL',
    );
    expect(sentenceFor(ScrapeRequestV2, {})).toBe('url: is required');
    expect(sentenceFor(ScrapeRequestV2, 'https://example.com')).toBe(
      'the body must be an object, not a string',
    );
    expect(scrape({ timeout: 999_999_999 })).toBe('timeout: must be at most 300000 ms (5 minutes)');
    expect(scrape({ waitFor: -5 })).toBe('waitFor: must be at least 0');
    expect(scrape({ waitFor: 20_000, timeout: 30_000 })).toBe('waitFor: must not exceed half of timeout');
    expect(scrape({ formats: 'markdown' })).toBe('formats: must be an array, not a string');
    expect(scrape({ proxy: 'stelth' })).toBe("proxy: 'stelth' is not a valid proxy; did you mean 'stealth'?");
    expect(scrape({ actions: [{ type: 'clik' }] })).toBe(
      "actions[0]: 'clik' is not an action; did you mean 'click'?",
    );
    expect(scrape({ bogus: 1, other: 2 })).toBe("unrecognized keys 'bogus', 'other'");
    expect(sentenceFor(SearchRequestV2, { query: '' })).toBe('query: must not be empty');
  });

  it('follows a union to the alternative the value came closest to', () => {
    const crawl = (webhook: unknown) => sentenceFor(CrawlRequestV2, { url: 'https://example.com', webhook });
    expect(crawl(5)).toBe('webhook: must be a string or an object, not a number');
    expect(crawl({ url: 5 })).toBe('webhook.url: must be a string, not a number');
    expect(crawl({ url: 'https://hooks.test/', events: ['pag'] })).toBe(
      "webhook.events[0]: 'pag' is not an event; did you mean 'page'?",
    );
    expect(sentenceFor(SearchRequestV2, { query: 'x', sources: ['webb'] })).toBe(
      "sources[0]: 'webb' is not a source; did you mean 'web'?",
    );
  });

  it('words three issues and counts the rest', () => {
    const sentence = sentenceFor(ScrapeRequestV2, { url: 5, formats: ['x'], timeout: 'a', proxy: 'z' });
    expect(sentence.split('; ').filter((part) => /^\w+(\[\d+\])?: /.test(part))).toHaveLength(3);
    expect(sentence).toMatch(/\(and 1 more in details\)$/);
  });

  it('quotes no long or odd value, and cuts long keys short', () => {
    const long = 'x'.repeat(10_000);
    const sentence = scrape({ proxy: long, [`${long}\n`]: 1 });
    expect(sentence.length).toBeLessThan(300);
    expect(sentence).not.toContain('x'.repeat(50));
    expect(sentence).not.toContain('\n');
  });

  it('never throws, whatever the issues hold', () => {
    const odd = [
      { code: 'invalid_union', message: 'x', path: ['a'], errors: 'nope' },
      { code: 'invalid_union', message: 'x', path: null, errors: [[null]] },
      { code: 'too_big', message: 'Too big', path: ['n'] },
    ] as unknown as IssueDetail[];
    expect(() => describeIssues(odd, { a: 1 })).not.toThrow();
    expect(describeIssues([])).toBe('');
  });
});
