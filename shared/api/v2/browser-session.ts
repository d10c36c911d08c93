import { z } from 'zod';
import { COUNTRY_CODES } from '../country-codes';
import { strictBody } from '../strict-body';
import { Actions } from './actions';
import { BrowserProfileOption } from './browser-profile-option';

/** `ttl`: a session's whole life, in seconds. */
export const SESSION_TTL_S = { min: 30, max: 3600, default: 300 } as const;
/** `activityTtl`: how long a session may go without a command or a live view's input, in seconds. */
export const SESSION_ACTIVITY_TTL_S = { min: 10, max: 3600, default: 300 } as const;
/** `timeout` of one execute, in seconds. */
export const EXECUTE_TIMEOUT_S = { min: 1, max: 300, default: 30 } as const;
/** Longest `code` and `prompt` an execute takes, in characters (Firecrawl's limits). */
export const MAX_EXECUTE_CODE_CHARS = 100_000;
export const MAX_EXECUTE_PROMPT_CHARS = 10_000;

const clientFields = {
  origin: z.string().optional(),
  // Any tag: the JS client forwards whatever its caller passes.
  integration: z.string().max(100).optional(),
};

const Country = z.string().transform((country, ctx) => {
  const code = country.toUpperCase();
  if (COUNTRY_CODES.has(code)) return code;
  ctx.addIssue({
    code: 'custom',
    message: 'Invalid country code. Please use a valid ISO 3166-1 alpha-2 country code.',
  });
  return z.NEVER;
});

/** `POST /v2/browser` (the clients' `browser()`). */
export const BrowserCreateRequest = strictBody(
  {
    ttl: z.number().int().min(SESSION_TTL_S.min).max(SESSION_TTL_S.max).default(SESSION_TTL_S.default),
    activityTtl: z.number().int().min(SESSION_ACTIVITY_TTL_S.min).max(SESSION_ACTIVITY_TTL_S.max).optional(),
    /** Firecrawl's live view streaming switch; Tabhive's live view is always there, so it is only echoed. */
    streamWebView: z.boolean().default(true),
    /** Records the session with rrweb for its replay (`GET /v2/browser/:id/replay`); on unless false. */
    recordSession: z.boolean().default(true),
    blockAds: z.boolean().default(true),
    profile: BrowserProfileOption.optional(),
    location: z.object({ country: Country }).optional(),
    ...clientFields,
  },
  'v2',
);
export type BrowserCreateRequest = z.infer<typeof BrowserCreateRequest>;

/**
 * `POST /v2/browser/:id/execute` and `POST /v2/scrape/:id/interact`: code, a prompt for the model,
 * or — Tabhive's own — a list of Firecrawl actions. `language` "node" (the default; "javascript"
 * and "js" alike) runs Playwright code in the server's sandbox, "page" — Tabhive's own — runs
 * JavaScript inside the page; "python" and "bash" are refused by the service, which says why.
 */
export const BrowserExecuteRequest = strictBody(
  {
    code: z.string().max(MAX_EXECUTE_CODE_CHARS).optional(),
    prompt: z.string().max(MAX_EXECUTE_PROMPT_CHARS).optional(),
    actions: Actions.min(1).optional(),
    language: z.enum(['node', 'python', 'bash', 'javascript', 'js', 'page']).optional(),
    timeout: z
      .number()
      .min(EXECUTE_TIMEOUT_S.min)
      .max(EXECUTE_TIMEOUT_S.max)
      .default(EXECUTE_TIMEOUT_S.default),
    ...clientFields,
  },
  'v2',
).refine(
  (body) =>
    [body.code?.trim() ? 1 : 0, body.prompt?.trim() ? 1 : 0, body.actions ? 1 : 0].reduce(
      (a, b) => a + b,
      0,
    ) === 1,
  { error: "Exactly one of 'code', 'prompt' or 'actions' must be provided" },
);
export type BrowserExecuteRequest = z.infer<typeof BrowserExecuteRequest>;

/** `GET /v2/browser?status=…` */
export const BrowserListQuery = z.object({ status: z.enum(['active', 'destroyed']).optional() });
