import { describe, expect, it } from 'vitest';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../../shared/protocol/messages';
import { browserOutputs, proxyMetadata } from '../../../server/scrape/enrich/browser-outputs';

const capture = (screenshots: string[]): PageCapture => ({
  url: 'https://a.test/',
  statusCode: 200,
  rawHtml: '',
  renderedHtml: '',
  actions: { screenshots, scrapes: [], javascriptReturns: [{ type: 'number', value: 1 }], pdfs: [] },
});
const request = (body: Record<string, unknown>) => ScrapeRequestV2.parse({ url: 'https://a.test/', ...body });

describe('browser outputs in the document', () => {
  it('makes the last screenshot data.screenshot and keeps the action ones in data.actions', () => {
    expect(
      browserOutputs(
        capture(['data:1', 'data:format']),
        request({ formats: ['screenshot'], actions: [{ type: 'screenshot' }] }),
      ),
    ).toEqual({
      screenshot: 'data:format',
      actions: {
        screenshots: ['data:1'],
        scrapes: [],
        javascriptReturns: [{ type: 'number', value: 1 }],
        pdfs: [],
      },
    });
  });

  it('has no data.actions when the caller gave none', () => {
    expect(browserOutputs(capture(['data:format']), request({ formats: ['screenshot'] }))).toEqual({
      screenshot: 'data:format',
    });
  });

  it('adds nothing for a capture without action outputs', () => {
    expect(browserOutputs({ ...capture([]), actions: undefined }, request({}))).toEqual({});
  });

  it('bills 4 more credits for stealth browsers', () => {
    expect(proxyMetadata('basic')).toEqual({ proxyUsed: 'basic', creditsUsed: 1 });
    expect(proxyMetadata(undefined)).toEqual({ proxyUsed: 'basic', creditsUsed: 1 });
    expect(proxyMetadata('stealth')).toEqual({ proxyUsed: 'stealth', creditsUsed: 5 });
  });
});
