import { describe, expect, it } from 'vitest';
import { BatchScrapeRequestV1 } from '../../../shared/api/v1/batch-scrape-request';
import { CrawlRequestV1 } from '../../../shared/api/v1/crawl-request';
import { BatchScrapeRequestV2 } from '../../../shared/api/v2/batch-scrape-request';
import { WebhookV2 } from '../../../shared/api/v2/crawl-webhook';
import { CrawlRequestV2 } from '../../../shared/api/v2/crawl-request';
import { MAX_WEBHOOK_HEADERS } from '../../../shared/api/v2/webhook-headers';
import { deliveryHeaders } from '../../../server/platform/webhooks/delivery-headers';

const URL_ = 'https://hooks.example.com/in';

/** The messages of the issues a webhook with these headers gets, with their paths. */
function refused(headers: Record<string, unknown>) {
  const parsed = WebhookV2.safeParse({ url: URL_, headers });
  return parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
}

describe('webhook headers', () => {
  it('lets a receiver’s own headers through, and a Content-Type that says what the sender says', () => {
    const headers = {
      Authorization: 'Bearer receiver-token',
      'X-Tenant': 'acme',
      'content-type': 'application/json; charset=utf-8',
    };
    expect(WebhookV2.parse({ url: URL_, headers }).headers).toEqual(headers);
    expect(WebhookV2.parse(URL_).headers).toEqual({});
  });

  it('refuses connection and framing headers, Host and Proxy-*, in any case', () => {
    for (const name of [
      'Host',
      'HOST',
      'Content-Length',
      'Transfer-Encoding',
      'Connection',
      'Keep-Alive',
      'Upgrade',
      'TE',
      'Trailer',
      'Expect',
      'Proxy-Authorization',
      'proxy-connection',
    ]) {
      const issues = refused({ [name]: 'x' });
      expect(issues, name).toEqual([
        [`headers.${name}`, expect.stringContaining(`Webhook header "${name}" is not allowed`)],
      ]);
    }
  });

  it('refuses the headers the sender sets: the signature in any case, webhook-id, another Content-Type', () => {
    for (const name of [
      'X-Firecrawl-Signature',
      'x-firecrawl-signature',
      'X-FIRECRAWL-SIGNATURE',
      'Webhook-Id',
    ])
      expect(refused({ [name]: 'sha256=forged' }), name).toEqual([
        [`headers.${name}`, expect.stringContaining('Tabhive sets it on every delivery')],
      ]);
    expect(refused({ 'Content-Type': 'text/plain' })).toEqual([
      ['headers.Content-Type', expect.stringContaining('always sent as application/json')],
    ]);
  });

  it('refuses names that are not tokens, values with CR, LF or NUL, repeats and too many', () => {
    for (const name of ['X Token', 'X-Token:', 'Bad\r\nName', 'Tök', ''])
      expect(refused({ [name]: 'x' }).length, JSON.stringify(name)).toBeGreaterThan(0);
    for (const value of ['a\r\nX-Injected: 1', 'a\nb', 'a\0b', 'a\rb', 'a\x7fb', 'a\x1bb', '20 €'])
      expect(refused({ 'X-Token': value }), JSON.stringify(value)).toEqual([
        ['headers.X-Token', expect.stringContaining('no CR, LF, NUL or other control characters')],
      ]);
    expect(refused({ 'X-Token': 'a', 'x-token': 'b' })).toEqual([
      ['headers.x-token', 'Webhook header "x-token" is given twice'],
    ]);
    const many = Object.fromEntries(
      Array.from({ length: MAX_WEBHOOK_HEADERS + 1 }, (_, i) => [`X-H${i}`, 'v']),
    );
    expect(refused(many)).toEqual([
      ['headers', `At most ${MAX_WEBHOOK_HEADERS} webhook headers are allowed`],
    ]);
  });

  it('holds in every request that takes a webhook, at the webhook’s path', () => {
    const webhook = { url: URL_, headers: { 'X-Firecrawl-Signature': 'sha256=forged' } };
    const cases = [
      CrawlRequestV2.safeParse({ url: 'https://site.test', webhook }),
      CrawlRequestV1.safeParse({ url: 'https://site.test', webhook }),
      BatchScrapeRequestV2.safeParse({ urls: ['https://site.test'], webhook }),
      BatchScrapeRequestV1.safeParse({ urls: ['https://site.test'], webhook }),
    ];
    for (const parsed of cases) {
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([
        ['webhook', 'headers', 'X-Firecrawl-Signature'],
      ]);
    }
  });
});

describe('the headers of a delivery', () => {
  const own = {
    'content-type': 'application/json',
    'webhook-id': 'job:started',
    'x-firecrawl-signature': 'sha256=real',
  };

  it('puts the sender’s headers after the caller’s, once each whatever the caller’s case', () => {
    // A job stored before submission checked its headers may hold anything.
    const headers = deliveryHeaders(
      {
        'X-Firecrawl-Signature': 'sha256=forged',
        'WEBHOOK-ID': 'forged',
        'Content-Type': 'text/plain',
        Host: 'internal-admin.corp',
        'Transfer-Encoding': 'chunked',
        'X-Bad': 'a\r\nX-Injected: 1',
        Authorization: 'Bearer receiver-token',
      },
      own,
    );
    expect(headers).toEqual({ Authorization: 'Bearer receiver-token', ...own });
  });
});
