import { describeIssues } from '../../../shared/api/readable-issues';
import type { IssueDetail } from '../../../shared/api/zod-issues';
import { TabhiveError } from './tabhive-error';

/**
 * Firecrawl's opening words, then what is wrong in a sentence (readable-issues.ts): clients that
 * match on `Bad Request` still find it, and a person reads the reason without digging in `details`.
 */
const withReason = (opening: string, details: readonly IssueDetail[], input: unknown) => {
  const reason = describeIssues(details, input);
  return reason === '' ? opening : `${opening}: ${reason}`;
};

/**
 * A body that fails validation: `details` are the issues as they are (docs/wire-contract.md §1.6),
 * the message says them in a sentence. `input`, the body as sent, lets it quote a mistyped value.
 */
const badRequest = (details: readonly IssueDetail[], input?: unknown) =>
  new TabhiveError('invalid-input', withReason('Bad Request', details, input), {
    code: 'BAD_REQUEST',
    details,
  });

/**
 * Every error callers are told about, declared once by what went wrong (its kind; the API picks
 * the HTTP status, server/api/http/error-status.ts). Codes and messages that Firecrawl clients and
 * test suites match on are Firecrawl's own (docs/wire-contract.md §1.2, §1.6–1.8); the rest are ours
 * and are stable once shipped.
 */
export const errors = {
  unauthorized: () => new TabhiveError('unauthenticated', 'Unauthorized'),
  tokenMissing: () => new TabhiveError('unauthenticated', 'Unauthorized: Token missing'),
  /**
   * The header holds one word that is not a scheme, e.g. the key without `Bearer ` before it. Firecrawl
   * answers `Token missing` here, which sends people looking for an empty variable.
   */
  schemeMissing: () =>
    new TabhiveError(
      'unauthenticated',
      'Unauthorized: the Authorization header has no scheme; send "Authorization: Bearer <key>"',
    ),
  invalidToken: () => new TabhiveError('unauthenticated', 'Unauthorized: Invalid token'),

  badRequest,
  /** `POST /v2/search` words its validation error differently and gives no code (docs/wire-contract.md §1.6). */
  invalidSearchBody: (details: readonly IssueDetail[], input?: unknown) =>
    new TabhiveError('invalid-input', withReason('Invalid request body', details, input), { details }),
  invalidJson: () =>
    new TabhiveError('invalid-input', 'Bad request, malformed JSON', { code: 'BAD_REQUEST_INVALID_JSON' }),
  unsupportedMediaType: (type: string) =>
    new TabhiveError('unsupported-media', `Unsupported content type "${type}": send application/json`, {
      code: 'UNSUPPORTED_MEDIA_TYPE',
    }),
  payloadTooLarge: (limitBytes: number) =>
    new TabhiveError('too-large', `Request body is larger than ${limitBytes} bytes`, {
      code: 'PAYLOAD_TOO_LARGE',
    }),
  notFound: () => new TabhiveError('not-found', 'Not found'),
  methodNotAllowed: (method: string, allow: string) =>
    new TabhiveError(
      'method-not-allowed',
      `Method ${method} is not allowed here${allow === '' ? '' : `; allowed: ${allow}`}`,
      {
        code: 'METHOD_NOT_ALLOWED',
        allowedMethods: allow,
      },
    ),
  unsupportedEndpoint: (method: string, path: string, feature: string) =>
    new TabhiveError(
      'not-found',
      `Tabhive does not serve Firecrawl's ${feature} endpoint (${method} ${path}). See docs/compatibility.md in Tabhive's repository.`,
      { code: 'UNSUPPORTED_ENDPOINT' },
    ),

  urlBlocked: (message: string) => new TabhiveError('forbidden', message, { code: 'URL_BLOCKED' }),
  /** A host that cannot be a site (`examplecom`): the validation shape, with the reason as the error. */
  urlLooksWrong: (message: string) =>
    new TabhiveError('invalid-input', message, {
      code: 'BAD_REQUEST',
      details: [{ code: 'custom', message, path: ['url'] }],
    }),
  /**
   * Only a donated browser of the team may reach the URL, and none that allows it takes the task
   * now (offline, paused, busy) or the one that did was revoked (docs/donated-browsers.md).
   */
  donatedBrowserUnavailable: (message: string) =>
    new TabhiveError('unavailable', message, { code: 'DONATED_BROWSER_UNAVAILABLE', retryAfterSeconds: 30 }),
  dnsResolution: (host: string) =>
    new TabhiveError(
      'failed',
      `DNS resolution failed for hostname: ${host}. Please check if the domain is valid and accessible.`,
      { code: 'SCRAPE_DNS_RESOLUTION_ERROR' },
    ),
  siteError: (browserError: string) =>
    new TabhiveError(
      'failed',
      `Specified URL is failing to load in the browser. Error code: ${browserError}`,
      {
        code: 'SCRAPE_SITE_ERROR',
      },
    ),
  /**
   * An anti-bot system or rate limiter answered instead of the site (docs/browser-control.md,
   * "Blocked pages and challenges"): Firecrawl's code for a site that would not give its page.
   */
  pageBlocked: (message: string, details: { blockedBy: string; kind: string }) =>
    new TabhiveError(
      'failed',
      `${message}. Try proxy "stealth", or a donated browser whose person can pass the check (docs/donated-browsers.md).`,
      { code: 'SCRAPE_SITE_ERROR', details },
    ),
  sslError: (browserError: string) =>
    new TabhiveError('failed', `An SSL error occurred while scraping the URL: ${browserError}`, {
      code: 'SCRAPE_SSL_ERROR',
    }),
  scrapeTimeout: () => new TabhiveError('timed-out', 'Scrape timed out', { code: 'SCRAPE_TIMEOUT' }),
  mapTimeout: () => new TabhiveError('timed-out', 'Map timed out', { code: 'MAP_TIMEOUT' }),
  invalidSelector: (selector: string) =>
    badRequest([{ code: 'custom', message: `Invalid CSS selector: ${selector}`, path: [] }]),
  /**
   * No browser took the task: none is attached (to any instance), or none that may take it came
   * within the grace period. Says what gives a server browsers.
   */
  noBrowser: () =>
    new TabhiveError(
      'unavailable',
      'No browser is connected to take this task. Give the server browsers: start it with BROWSERS=1 or more ' +
        '(BROWSERS=0 launches none), pair a browser with your team, or attach a browser node ' +
        '(npm run browser-node); the server log says why a browser was refused.',
      {
        code: 'NO_BROWSER_AVAILABLE',
        retryAfterSeconds: 5,
      },
    ),
  storeUnavailable: () =>
    new TabhiveError('unavailable', 'The database is unavailable right now; try again shortly.', {
      code: 'STORE_UNAVAILABLE',
      retryAfterSeconds: 5,
    }),
  scrapeNotFound: () => new TabhiveError('not-found', 'Job not found.'),
  actionFailed: (reason: string) =>
    new TabhiveError('failed', `Action(s) failed to complete. Error code: ${reason}`, {
      code: 'SCRAPE_ACTION_ERROR',
    }),
  stealthUnavailable: () =>
    new TabhiveError(
      'unavailable',
      'proxy "stealth" needs a stealth browser, and none is connected. Set STEALTH_PROXY_URL, or use proxy "basic" or "auto".',
      { code: 'STEALTH_UNAVAILABLE', retryAfterSeconds: 5 },
    ),
  /**
   * Firecrawl's first sentence (clients match it); the rest says what a Tabhive operator does
   * instead of buying a plan: raise the team's allowance, a total, with the keys CLI or the admin API.
   */
  insufficientCredits: (teamId: string) =>
    new TabhiveError(
      'insufficient-credits',
      `Insufficient credits to perform this request. Team "${teamId}" has spent its credit allowance: ` +
        `ask the operator of this Tabhive server to raise it to a new total (\`npm run keys -- team set ${teamId} --allowance <credits>\`, ` +
        `or PATCH /admin/v1/teams/${teamId} with {"creditAllowance": <credits>}), or lower the request's limit.`,
    ),
  /** Firecrawl's words, with and without the hint that applies to a crawl (docs/wire-contract.md §6.1, §6.3). */
  promptNotUnderstood: (forCrawl: boolean) =>
    new TabhiveError(
      'invalid-input',
      forCrawl
        ? 'Failed to process natural language prompt. Please try rephrasing or use explicit crawler options.'
        : 'Failed to process natural language prompt. Please try rephrasing.',
    ),
  invalidPreviewParameters: (messages: string) =>
    new TabhiveError('invalid-input', `Invalid request parameters: ${messages}`, { code: 'BAD_REQUEST' }),
  rateLimited: ({
    limit,
    count,
    resetsAt,
    now,
  }: {
    limit: number;
    count: number;
    resetsAt: Date;
    now: Date;
  }) => {
    const seconds = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
    return new TabhiveError(
      'rate-limited',
      `Rate limit exceeded. Consumed (req/min): ${count}, Remaining (req/min): ${Math.max(0, limit - count)}. Please retry after ${seconds}s, resets at ${resetsAt.toString()}`,
      { code: 'RATE_LIMIT_EXCEEDED', retryAfterSeconds: seconds },
    );
  },
  concurrencyLimit: (maxConcurrency: number) =>
    new TabhiveError(
      'rate-limited',
      `Concurrency limit reached: this team may run ${maxConcurrency} scrapes and crawl pages at once. Retry when one of them has finished.`,
      { code: 'CONCURRENCY_LIMIT_EXCEEDED', retryAfterSeconds: 1 },
    ),
  forbiddenKey: (key: string, path: ReadonlyArray<string | number>) =>
    badRequest([
      { code: 'custom', message: `The key "${key}" is not allowed in a request body`, path: [...path] },
    ]),
  bodyTooComplex: (message: string, path: ReadonlyArray<string | number>) =>
    badRequest([{ code: 'custom', message, path: [...path] }]),
  adminUnauthorized: () => new TabhiveError('unauthenticated', 'Unauthorized: Invalid admin key'),
  teamNotFound: (message: string) => new TabhiveError('not-found', message, { code: 'TEAM_NOT_FOUND' }),
  conflict: (message: string) => new TabhiveError('conflict', message, { code: 'CONFLICT' }),
  idempotencyKeyUsed: () => new TabhiveError('conflict', 'Idempotency key already used'),
  jobNotFound: () => new TabhiveError('not-found', 'Job not found'),
  /** No code, as Firecrawl's non-coded internal errors (v1 routes add UNKNOWN_ERROR). */
  llmFailed: (reason: string) =>
    new TabhiveError('failed', `(Internal server error) - LLM extraction failed: ${reason}`),
  donatedBrowserRefused: (reason: string) =>
    new TabhiveError('forbidden', `This task cannot run on your team's donated browser: ${reason}.`, {
      code: 'DONATED_BROWSER_REFUSED',
    }),
  pairingCodeInvalid: () =>
    new TabhiveError(
      'invalid-input',
      'The pairing code is not valid or was already used. Ask your team for a new one.',
      {
        code: 'PAIRING_CODE_INVALID',
      },
    ),
  pairingCodeExpired: () =>
    new TabhiveError('gone', 'The pairing code has expired. Ask your team for a new one.', {
      code: 'PAIRING_CODE_EXPIRED',
    }),
  browserNotFound: () =>
    new TabhiveError('not-found', 'No browser with this id is paired with your team.', {
      code: 'BROWSER_NOT_FOUND',
    }),
  deviceTokenInvalid: () =>
    new TabhiveError(
      'unauthenticated',
      'Unauthorized: this browser is not paired, or its pairing was revoked',
      {
        code: 'DEVICE_TOKEN_INVALID',
      },
    ),
  browserFailed: (message: string) =>
    new TabhiveError('failed', `All scraping engines failed! -- ${message}`, {
      code: 'SCRAPE_ALL_ENGINES_FAILED',
    }),
  /** Firecrawl's code and status for a `lockdown` scrape the cache cannot answer. */
  lockdownCacheMiss: (window: string) =>
    new TabhiveError(
      'not-found',
      `lockdown: no cached copy of this page${window === '' ? '' : ` ${window}`} was found, and lockdown never contacts the site. Scrape it once without lockdown to cache it.`,
      { code: 'SCRAPE_LOCKDOWN_CACHE_MISS' },
    ),
  /** A `minAge` scrape the cache cannot answer: a copy that old can only come from the cache. */
  noCachedCopy: (window: string) =>
    new TabhiveError(
      'not-found',
      `No cached copy of this page${window === '' ? '' : ` ${window}`} was found; with minAge the page is served only from the cache, and the site was not contacted.`,
      { code: 'SCRAPE_NO_CACHED_DATA' },
    ),
  /** The PII redaction could not run (its LLM failed): the document is not returned unredacted. */
  redactionFailed: (reason: string) =>
    new TabhiveError('failed', `PII redaction failed, so the page is not returned: ${reason}`, {
      code: 'SCRAPE_PII_REDACTION_FAILED',
    }),
} as const;
