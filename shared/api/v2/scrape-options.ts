import { z } from 'zod';
import { COUNTRY_CODES } from '../country-codes';
import { HEADER_NAME, MAX_HEADERS, MAX_HEADER_LENGTH, isConnectionHeader } from '../http-header-rules';
import { RequestTimeout } from '../request-timeout';
import { rewriteIframeSelector } from '../rewrite-iframe-selector';
import { strictBody } from '../strict-body';
import { type Action, Actions, actionWaitMs } from './actions';
import { BrowserProfileOption } from './browser-profile-option';
import { type CacheOnlyFields, refineCacheOnly } from './cache-only';
import { FormatsV2 } from './formats';
import { ParsersV2 } from './parsers';
import { RedactPii, refineRedactPii } from './redact-pii';

/** Longest `waitFor`, and the cap on `waitFor` plus the time spent in wait actions. */
export const MAX_WAIT_MS = 60_000;
/** CR, LF or NUL in a value would let a client inject headers into the request to the target. */
const HEADER_VALUE = /^[^\r\n\0]*$/;
export const RESERVED_HEADER_MESSAGE =
  'Host and hop-by-hop headers (Connection, Keep-Alive, Proxy-*, TE, Trailer, Transfer-Encoding, ' +
  'Upgrade, Content-Length) cannot be set';

const Headers = z
  .record(
    z.string().max(MAX_HEADER_LENGTH).regex(HEADER_NAME, { error: 'Invalid header name' }),
    z
      .string()
      .max(MAX_HEADER_LENGTH)
      .regex(HEADER_VALUE, { error: 'Header values must not contain CR, LF or NUL' }),
  )
  .refine((headers) => Object.keys(headers).length <= MAX_HEADERS, {
    error: `At most ${MAX_HEADERS} headers are allowed`,
  })
  .superRefine((headers, ctx) => {
    for (const name of Object.keys(headers)) {
      if (isConnectionHeader(name)) {
        ctx.addIssue({ code: 'custom', path: [name], message: `${RESERVED_HEADER_MESSAGE}: ${name}` });
      }
    }
  });

/**
 * `location.languages` entries: language tags (`en`, `en-US`, `zh_Hant_TW`, or `*`). They become the
 * browser's Accept-Language, which Chromium refuses outright for anything else (the whole scrape
 * failed with a 500 on a control character).
 */
const LanguageTag = z
  .string()
  .regex(/^(?:[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*|\*)$/, 'must be a language tag such as en-US');
const MAX_LANGUAGES = 20;

/** CSS selectors, with `iframe` type selectors pointed at the div the HTML pipeline puts in their place. */
const Selectors = z.array(z.string()).transform((selectors) => selectors.map(rewriteIframeSelector));

const INVALID_COUNTRY = 'Invalid country code. Please use a valid ISO 3166-1 alpha-2 country code.';

/**
 * `location.country`: an ISO 3166-1 alpha-2 code in any case, returned upper-cased, or
 * `US-generic` (also what an absent or empty country becomes, as in Firecrawl).
 */
const Country = z
  .string()
  .default('US-generic')
  .transform((country, ctx) => {
    if (country === '' || country.toLowerCase() === 'us-generic') return 'US-generic';
    const code = country.toUpperCase();
    if (COUNTRY_CODES.has(code)) return code;
    ctx.addIssue({ code: 'custom', message: INVALID_COUNTRY });
    return z.NEVER;
  });

/**
 * The fields of v2 scrape options (docs/wire-contract.md §3.1) with their v2 defaults. `/v2/scrape` and
 * `/v2/batch/scrape` spread this shape into their bodies; crawl and search nest ScrapeOptionsV2.
 * Whoever builds an object from it must also apply refineScrapeOptionsV2.
 */
export const scrapeOptionsV2Shape = {
  formats: FormatsV2,
  /** Sent to the target; disables the cache. */
  headers: Headers.optional(),
  includeTags: Selectors.optional(),
  excludeTags: Selectors.optional(),
  onlyMainContent: z.boolean().default(true),
  /** No default here: the server applies its own (300 000 ms) when absent. */
  timeout: RequestTimeout.optional(),
  waitFor: z.int().min(0).max(MAX_WAIT_MS).default(0),
  mobile: z.boolean().default(false),
  /** `[]` returns a PDF's bytes as base64 instead of parsing it; objects tune the PDF parser. */
  parsers: ParsersV2,
  actions: Actions.optional(),
  location: z
    .object({
      country: Country,
      languages: z.array(LanguageTag).max(MAX_LANGUAGES).optional(),
    })
    .optional(),
  skipTlsVerification: z.boolean().default(true),
  removeBase64Images: z.boolean().default(true),
  fastMode: z.boolean().default(false),
  blockAds: z.boolean().default(true),
  /**
   * Tabhive's own: a browser skips images, video, audio and web fonts when no requested output
   * needs them (docs/browser-control.md#media). `false` loads them as a person's browser would.
   */
  blockMedia: z.boolean().default(true),
  /** `enhanced`: the strongest class of browser connected (run-with-proxy.ts). */
  proxy: z.enum(['basic', 'stealth', 'enhanced', 'auto']).default('auto'),
  /** Cache freshness in ms; no default here, the server decides. */
  maxAge: z.int().min(0).optional(),
  /** Serve only a cached copy at least this old (ms), never the site (cache-only.ts). */
  minAge: z.int().min(0).optional(),
  storeInCache: z.boolean().default(true),
  /** Serve only from the cache and never contact the site (cache-only.ts). */
  lockdown: z.boolean().optional(),
  /** Personal data and secrets replaced in every text output (server/scrape/enrich/redact/). */
  redactPII: RedactPii.optional(),
  /** A named browser profile of the team: cookies and localStorage kept between scrapes. */
  profile: BrowserProfileOption.optional(),
  /** Screen the page for instructions aimed at a model before any model format reads it (+4 credits). */
  checkPromptInjection: z.boolean().optional(),
  useMock: z.string().optional(),
  // Firecrawl-internal flags that clients may echo; accepted and ignored.
  __experimental_omce: z.boolean().optional(),
  __experimental_omceDomain: z.string().optional(),
  __searchPreviewToken: z.string().optional(),
};

/** The fields that the cross-field rules read. */
export interface WaitFields {
  timeout?: number | undefined;
  waitFor: number;
  actions?: readonly Action[] | undefined;
}

/** What the cache-only and redaction rules read besides; v1 objects, which lack these fields, pass. */
type CacheAndPrivacyFields = Omit<CacheOnlyFields, 'waitFor' | 'actions'> & {
  redactPII?: RedactPii | undefined;
};

/**
 * The rules that span several scrape-option fields, for `.superRefine()` on every object built
 * from scrapeOptionsV2Shape:
 * - `waitFor` at most half of `timeout` when both are non-zero (path `["waitFor"]`);
 * - `waitFor` plus the wait actions (actionWaitMs) at most MAX_WAIT_MS (path `["actions"]`);
 * - the rules of `lockdown` and `minAge` (refineCacheOnly) and of `redactPII` (refineRedactPii).
 */
export function refineScrapeOptionsV2(
  options: WaitFields & CacheAndPrivacyFields,
  ctx: z.RefinementCtx,
): void {
  refineCacheOnly(options, ctx);
  refineRedactPii(options, ctx);
  const { timeout, waitFor, actions } = options;
  if (timeout && waitFor && waitFor > timeout / 2) {
    ctx.addIssue({ code: 'custom', message: 'waitFor must not exceed half of timeout', path: ['waitFor'] });
  }
  if (actions && waitFor + actionWaitMs(actions) > MAX_WAIT_MS) {
    ctx.addIssue({
      code: 'custom',
      message: 'Total wait time (waitFor + wait actions) cannot exceed 60 seconds',
      path: ['actions'],
    });
  }
}

/** Scrape options as a nested, strict object (crawl's and search's `scrapeOptions`). */
export const ScrapeOptionsV2 = strictBody(scrapeOptionsV2Shape, 'v2').superRefine(refineScrapeOptionsV2);
export type ScrapeOptionsV2 = z.infer<typeof ScrapeOptionsV2>;
