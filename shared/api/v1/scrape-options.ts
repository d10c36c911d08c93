import { z } from 'zod';
import { JsonValue } from '../json-value';
import { RequestTimeout } from '../request-timeout';
import { strictBody } from '../strict-body';
import { scrapeOptionsV2Shape } from '../v2/scrape-options';

/** v1 `formats`: names only (docs/wire-contract.md §11.1). */
export const FormatNameV1 = z.enum([
  'markdown',
  'html',
  'rawHtml',
  'links',
  'screenshot',
  'screenshot@fullPage',
  'extract',
  'json',
  'summary',
  'changeTracking',
]);
export type FormatNameV1 = z.infer<typeof FormatNameV1>;

/** FIRE-1 agent settings; accepted for compatibility, the agent itself is not available here. */
export const AgentV1 = z.object({
  model: z.string().default('FIRE-1'),
  prompt: z.string().optional(),
  sessionId: z.string().optional(),
  waitBeforeClosingMs: z.int().min(0).optional(),
});

/** `jsonOptions` and `extract` (strict): the json format's schema and prompt in v1 syntax. */
export const JsonOptionsV1 = strictBody(
  {
    mode: z.literal('llm').default('llm'),
    /** A JSON Schema; the JS SDK converts zod schemas with zod-to-json-schema. */
    schema: JsonValue.optional(),
    /** Accepted; Firecrawl replaces it with its own, and so does Tabhive. */
    systemPrompt: z.string().optional(),
    prompt: z.string().max(10_000).optional(),
    temperature: z.number().optional(),
    agent: AgentV1.optional(),
    /** Screen the page for prompt injection first (server/scrape/enrich/screen/). */
    checkPromptInjection: z.boolean().optional(),
  },
  'v1',
);
export type JsonOptionsV1 = z.infer<typeof JsonOptionsV1>;

export const ChangeTrackingOptionsV1 = strictBody(
  {
    prompt: z.string().optional(),
    schema: JsonValue.optional(),
    modes: z.array(z.enum(['json', 'git-diff'])).default(() => []),
    tag: z.string().nullable().default(null),
  },
  'v1',
);

/**
 * The fields of v1 scrape options with v1's defaults (docs/wire-contract.md §11.1): string formats, a 30 s
 * timeout, `proxy: basic`, TLS verified, no cache reads (`maxAge: 0`), `parsePDF` for `parsers`,
 * `geolocation` as an old name of `location`, and the LLM options as objects beside the formats.
 */
const {
  parsers: _parsers,
  // v2 only, as in Firecrawl: v1's maxAge defaults to 0, which a cache-only request cannot honour.
  minAge: _minAge,
  lockdown: _lockdown,
  redactPII: _redactPII,
  ...sharedWithV2
} = scrapeOptionsV2Shape;

export const scrapeOptionsV1Shape = {
  ...sharedWithV2,
  formats: z.array(FormatNameV1).default(() => ['markdown' as const]),
  timeout: RequestTimeout.default(30_000),
  proxy: z.enum(['basic', 'stealth', 'auto']).default('basic'),
  skipTlsVerification: z.boolean().default(false),
  maxAge: z.int().min(0).default(0),
  parsePDF: z.boolean().default(true),
  jsonOptions: JsonOptionsV1.optional(),
  extract: JsonOptionsV1.optional(),
  changeTrackingOptions: ChangeTrackingOptionsV1.optional(),
  geolocation: scrapeOptionsV2Shape.location,
  /** Firecrawl's switch for a 4 h cache when no maxAge was given. */
  __experimental_cache: z.boolean().optional(),
};

const EXTRACT_OPTIONS_MESSAGE =
  "When 'extract' or 'json' format is specified, corresponding options must be provided, and vice versa";

/** The v1 rules that span fields (besides v2's wait rules, which v1 shares). */
export function refineScrapeOptionsV1(
  options: {
    formats: FormatNameV1[];
    jsonOptions?: JsonOptionsV1 | undefined;
    extract?: JsonOptionsV1 | undefined;
    agent?: z.infer<typeof AgentV1> | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const has = (format: FormatNameV1) => options.formats.includes(format);
  if (
    has('json') !== (options.jsonOptions !== undefined) ||
    has('extract') !== (options.extract !== undefined)
  ) {
    ctx.addIssue({ code: 'custom', message: EXTRACT_OPTIONS_MESSAGE });
  }
  if (has('json') && has('extract')) {
    ctx.addIssue({ code: 'custom', message: "Use either the 'extract' or the 'json' format, not both" });
  }
  if (has('screenshot') && has('screenshot@fullPage')) {
    ctx.addIssue({
      code: 'custom',
      message: 'You may only specify either screenshot or screenshot@fullPage',
    });
  }
  const jsonAgent = (options.jsonOptions ?? options.extract)?.agent;
  if (options.agent?.model.toUpperCase() === 'FIRE-1' && jsonAgent?.model.toUpperCase() === 'FIRE-1') {
    ctx.addIssue({
      code: 'custom',
      message: 'You may only specify the FIRE-1 model in agent or jsonOptions.agent, but not both.',
    });
  }
}
