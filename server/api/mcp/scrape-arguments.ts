import { z } from 'zod';

/** The format names Firecrawl's MCP server lists; Tabhive's own schema decides which it serves. */
const FORMAT_NAMES = [
  'markdown',
  'html',
  'rawHtml',
  'screenshot',
  'links',
  'images',
  'summary',
  'changeTracking',
  'branding',
  'json',
  'query',
  'audio',
] as const;

/**
 * Scrape options as Firecrawl's MCP server takes them: `formats` are names, and the options of the
 * `json`, `query` and `screenshot` formats (and of the `pdf` parser) come as fields of their own.
 * Only the shape an agent sees is declared here; the values are checked by the API's own scrape
 * schema once turned into a request body, so the MCP tools refuse exactly what the routes refuse.
 * Unknown keys pass through to that check rather than being dropped unseen.
 */
export const scrapeArgumentsShape = {
  formats: z.array(z.enum(FORMAT_NAMES)).optional().describe('Output formats; markdown when none'),
  jsonOptions: z
    .looseObject({ prompt: z.string().optional(), schema: z.record(z.string(), z.unknown()).optional() })
    .optional()
    .describe('Prompt and JSON Schema of the json format'),
  queryOptions: z
    .looseObject({ prompt: z.string(), mode: z.enum(['directQuote', 'freeform']).optional() })
    .optional(),
  screenshotOptions: z
    .looseObject({
      fullPage: z.boolean().optional(),
      quality: z.number().optional(),
      viewport: z.object({ width: z.number(), height: z.number() }).optional(),
    })
    .optional(),
  parsers: z.array(z.enum(['pdf'])).optional(),
  pdfOptions: z.looseObject({ maxPages: z.number().int().optional() }).optional(),
  onlyMainContent: z.boolean().optional(),
  includeTags: z.array(z.string()).optional(),
  excludeTags: z.array(z.string()).optional(),
  waitFor: z.number().optional().describe('Milliseconds to wait after the page loads'),
  timeout: z.number().optional().describe('Milliseconds the scrape may take'),
  actions: z
    .array(z.looseObject({ type: z.string() }))
    .optional()
    .describe('Browser actions to run before the page is captured (wait, click, write, press, scroll, …)'),
  mobile: z.boolean().optional(),
  skipTlsVerification: z.boolean().optional(),
  removeBase64Images: z.boolean().optional(),
  location: z
    .looseObject({ country: z.string().optional(), languages: z.array(z.string()).optional() })
    .optional(),
  storeInCache: z.boolean().optional(),
  zeroDataRetention: z.boolean().optional(),
  maxAge: z.number().optional().describe('Serve a cached copy up to this many ms old; 0 for a live fetch'),
  lockdown: z.boolean().optional(),
  redactPII: z.boolean().optional(),
  proxy: z.enum(['basic', 'stealth', 'enhanced', 'auto']).optional(),
  profile: z.looseObject({ name: z.string(), saveChanges: z.boolean().optional() }).optional(),
};

export const ScrapeArguments = z.looseObject(scrapeArgumentsShape);
export type ScrapeArguments = z.infer<typeof ScrapeArguments>;

/**
 * Leaves out what Firecrawl's MCP server leaves out of its requests: unset values, blank strings,
 * empty lists and empty objects, which an agent often fills in for "nothing".
 */
export function withoutEmptyValues(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => {
      if (value === undefined || value === null) return false;
      if (typeof value === 'string') return value.trim() !== '';
      if (Array.isArray(value)) return value.length > 0;
      if (typeof value === 'object') return Object.keys(value).length > 0;
      return true;
    }),
  );
}

/** The `formats` and `parsers` of a v2 request, with each one's options folded into it. */
function formatsAndParsers(args: ScrapeArguments) {
  const formats = args.formats?.map((name) => {
    if (name === 'json') return { type: 'json', ...args.jsonOptions };
    if (name === 'query') return { type: 'query', ...args.queryOptions };
    if (name === 'screenshot' && args.screenshotOptions !== undefined)
      return { type: 'screenshot', ...args.screenshotOptions };
    return name;
  });
  const parsers = args.parsers?.map((name) =>
    name === 'pdf' && args.pdfOptions !== undefined ? { type: 'pdf', ...args.pdfOptions } : name,
  );
  return { formats, parsers };
}

/** Scrape options in the MCP tools' shape → the same options as a v2 API request body has them. */
export function scrapeOptionsBody(args: Record<string, unknown>): Record<string, unknown> {
  const parsed = ScrapeArguments.safeParse(args);
  // A shape the declared fields refuse reaches the API schema as sent, which then says what is wrong.
  if (!parsed.success) return withoutEmptyValues(args);
  const {
    jsonOptions: _json,
    queryOptions: _query,
    screenshotOptions: _screenshot,
    pdfOptions: _pdf,
    ...rest
  } = parsed.data;
  return withoutEmptyValues({ ...rest, ...formatsAndParsers(parsed.data) });
}
