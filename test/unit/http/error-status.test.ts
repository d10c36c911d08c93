import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../../server/api/http/error-handler';
import { httpHeadersOf, httpStatusOf } from '../../../server/api/http/error-status';
import { errors } from '../../../server/platform/errors/errors';
import type { TabhiveError } from '../../../server/platform/errors/tabhive-error';
import { silentLog } from '../../../server/platform/log/log';
import { serveApp } from '../../helpers/serve-app';

/**
 * Every catalogue entry with the HTTP status it was answered with when the catalogue still built
 * HTTP errors itself. These statuses are part of the contract: a kind may be renamed, the status
 * may not change. The mapped type makes a new entry fail to compile until it is listed here.
 */
const STATUS_BEFORE_KINDS: { [Name in keyof typeof errors]: [status: number, sample: () => TabhiveError] } = {
  unauthorized: [401, () => errors.unauthorized()],
  tokenMissing: [401, () => errors.tokenMissing()],
  schemeMissing: [401, () => errors.schemeMissing()],
  invalidToken: [401, () => errors.invalidToken()],
  badRequest: [400, () => errors.badRequest([])],
  invalidSearchBody: [400, () => errors.invalidSearchBody([])],
  invalidJson: [400, () => errors.invalidJson()],
  unsupportedMediaType: [415, () => errors.unsupportedMediaType('text/plain')],
  payloadTooLarge: [413, () => errors.payloadTooLarge(1024)],
  notFound: [404, () => errors.notFound()],
  methodNotAllowed: [405, () => errors.methodNotAllowed('PUT', 'GET, POST')],
  unsupportedEndpoint: [404, () => errors.unsupportedEndpoint('POST', '/v2/feedback', 'feedback')],
  urlBlocked: [403, () => errors.urlBlocked('blocked')],
  urlLooksWrong: [400, () => errors.urlLooksWrong('The URL looks wrong')],
  donatedBrowserUnavailable: [503, () => errors.donatedBrowserUnavailable('offline')],
  dnsResolution: [500, () => errors.dnsResolution('nowhere.test')],
  siteError: [500, () => errors.siteError('net::ERR_CONNECTION_RESET')],
  pageBlocked: [
    500,
    () =>
      errors.pageBlocked('a.test answered with a Cloudflare challenge page', {
        blockedBy: 'Cloudflare',
        kind: 'challenge',
      }),
  ],
  sslError: [500, () => errors.sslError('net::ERR_CERT_DATE_INVALID')],
  scrapeTimeout: [408, () => errors.scrapeTimeout()],
  mapTimeout: [408, () => errors.mapTimeout()],
  invalidSelector: [400, () => errors.invalidSelector('div[[[')],
  noBrowser: [503, () => errors.noBrowser()],
  storeUnavailable: [503, () => errors.storeUnavailable()],
  scrapeNotFound: [404, () => errors.scrapeNotFound()],
  actionFailed: [500, () => errors.actionFailed('click failed')],
  stealthUnavailable: [503, () => errors.stealthUnavailable()],
  insufficientCredits: [402, () => errors.insufficientCredits('team')],
  promptNotUnderstood: [400, () => errors.promptNotUnderstood(true)],
  invalidPreviewParameters: [400, () => errors.invalidPreviewParameters('x')],
  rateLimited: [
    429,
    () => errors.rateLimited({ limit: 10, count: 11, resetsAt: new Date(60_000), now: new Date(30_000) }),
  ],
  concurrencyLimit: [429, () => errors.concurrencyLimit(2)],
  forbiddenKey: [400, () => errors.forbiddenKey('__proto__', ['a'])],
  bodyTooComplex: [400, () => errors.bodyTooComplex('too deep', [])],
  adminUnauthorized: [401, () => errors.adminUnauthorized()],
  teamNotFound: [404, () => errors.teamNotFound('no team')],
  conflict: [409, () => errors.conflict('taken')],
  idempotencyKeyUsed: [409, () => errors.idempotencyKeyUsed()],
  jobNotFound: [404, () => errors.jobNotFound()],
  llmFailed: [500, () => errors.llmFailed('overloaded')],
  donatedBrowserRefused: [403, () => errors.donatedBrowserRefused('private target')],
  pairingCodeInvalid: [400, () => errors.pairingCodeInvalid()],
  pairingCodeExpired: [410, () => errors.pairingCodeExpired()],
  browserNotFound: [404, () => errors.browserNotFound()],
  deviceTokenInvalid: [401, () => errors.deviceTokenInvalid()],
  browserFailed: [500, () => errors.browserFailed('browser closed')],
  lockdownCacheMiss: [404, () => errors.lockdownCacheMiss('')],
  noCachedCopy: [404, () => errors.noCachedCopy('')],
  redactionFailed: [500, () => errors.redactionFailed('overloaded')],
};

/** The headers the entries that had any answered with; every other entry has none. */
const HEADERS_BEFORE_KINDS: Partial<Record<keyof typeof errors, Record<string, string>>> = {
  methodNotAllowed: { Allow: 'GET, POST' },
  noBrowser: { 'Retry-After': '5' },
  storeUnavailable: { 'Retry-After': '5' },
  stealthUnavailable: { 'Retry-After': '5' },
  rateLimited: { 'Retry-After': '30' },
  concurrencyLimit: { 'Retry-After': '1' },
  donatedBrowserUnavailable: { 'Retry-After': '30' },
  // The body reader closed the connection itself before; the mapping does it now.
  payloadTooLarge: { Connection: 'close' },
};

const entries = Object.entries(STATUS_BEFORE_KINDS) as Array<
  [keyof typeof errors, [number, () => TabhiveError]]
>;

describe('the HTTP status of each domain error', () => {
  it('lists every catalogue entry', () => {
    expect(Object.keys(STATUS_BEFORE_KINDS).sort()).toEqual(Object.keys(errors).sort());
  });

  it.each(entries)('answers %s with the status it always had', (_name, [status, sample]) => {
    expect(httpStatusOf(sample())).toBe(status);
  });

  it.each(entries)('answers %s with the headers it always had', (name, [, sample]) => {
    expect(httpHeadersOf(sample())).toEqual(HEADERS_BEFORE_KINDS[name] ?? {});
  });

  it('sends no Allow header when the allowed methods are unknown', () => {
    expect(httpHeadersOf(errors.methodNotAllowed('TRACE', ''))).toEqual({});
  });
});

describe('the error handler', () => {
  let thrown: unknown;
  let api: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    const app = new Koa();
    app.use(errorHandler({ log: silentLog }));
    app.use(() => {
      throw thrown;
    });
    api = await serveApp(app);
  });
  afterAll(() => api.close());

  it('renders a domain error as Firecrawl’s envelope with its status and headers', async () => {
    thrown = errors.noBrowser();
    const response = await fetch(api.url);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({
      success: false,
      code: 'NO_BROWSER_AVAILABLE',
      error: expect.stringMatching(/^No browser is connected to take this task\. .*BROWSERS=1/),
    });
  });

  it('closes the connection after refusing a body that is too large', async () => {
    thrown = errors.payloadTooLarge(1024);
    const response = await fetch(api.url);
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
  });

  it('renders details, and leaves out a code the error does not have', async () => {
    thrown = errors.invalidSearchBody([{ code: 'custom', message: 'no', path: ['query'] }]);
    const response = await fetch(api.url);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      success: false,
      error: 'Invalid request body: query: no',
      details: [{ code: 'custom', message: 'no', path: ['query'] }],
    });
  });

  it('answers an unknown error with a 500 in Firecrawl’s shape that reveals nothing', async () => {
    thrown = new Error('secret internal detail at /srv/tabhive');
    const response = await fetch(api.url);
    expect(response.status).toBe(500);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'error', 'success']);
    expect(body).toMatchObject({ success: false, code: 'UNKNOWN_ERROR' });
    expect(body.error).toMatch(/^An unexpected error occurred\. Your exception ID is [0-9a-f-]{36}$/);
  });
});
