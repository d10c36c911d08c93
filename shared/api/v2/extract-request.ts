import { z } from 'zod';
import { Integration } from '../common-fields';
import { JsonValue } from '../json-value';
import { strictBody } from '../strict-body';
import { MAX_URL_LENGTH } from '../url-input';
import { WebhookV2 } from './crawl-webhook';
import { ScrapeOptionsV2 } from './scrape-options';

/** The most `urls` entries one extract takes; a wildcard entry (`https://site/*`) counts once. */
export const MAX_EXTRACT_URLS = 100;
/** Longest `prompt` and `systemPrompt`, as the json format's prompt. */
export const MAX_EXTRACT_PROMPT_LENGTH = 10_000;

/**
 * Firecrawl's FIRE-1 agent options. Accepted so that clients which send them work; Tabhive has no
 * agent, and the job's warning says so.
 */
const ExtractAgent = z.looseObject({
  model: z.string().optional(),
  prompt: z.string().optional(),
  sessionId: z.string().optional(),
});

/**
 * The fields of `POST /v2/extract` and `POST /v1/extract` alike. `urls` stay strings: each one is
 * checked by the extract service, which skips the bad ones with `ignoreInvalidURLs` and refuses
 * the request without it. `schema` and `urls` may be null: firecrawl-py's V1FirecrawlApp sends
 * `null` for what the caller left out.
 */
export const extractFieldsShape = {
  urls: z.array(z.string().max(MAX_URL_LENGTH)).max(MAX_EXTRACT_URLS).nullish(),
  prompt: z.string().max(MAX_EXTRACT_PROMPT_LENGTH).optional(),
  /** A JSON Schema; the JS SDK converts zod schemas, firecrawl-py pydantic models. */
  schema: JsonValue.optional(),
  systemPrompt: z.string().max(MAX_EXTRACT_PROMPT_LENGTH).optional(),
  allowExternalLinks: z.boolean().default(false),
  enableWebSearch: z.boolean().default(false),
  /** For wildcard URLs: the site map also lists the site's subdomains. */
  includeSubdomains: z.boolean().default(true),
  showSources: z.boolean().default(false),
  ignoreInvalidURLs: z.boolean().default(false),
  webhook: WebhookV2.optional(),
  origin: z.string().optional(),
  integration: Integration.optional(),
  agent: ExtractAgent.optional(),
  /** Firecrawl cloud's threat scanning; refused with a message that says why (refineExtract). */
  threatProtection: z.unknown().optional(),
};

/** What both versions' requests become: v1 names and v1 scrape options mapped to v2. */
export interface ExtractRequest {
  urls: string[];
  prompt?: string | undefined;
  schema?: unknown;
  systemPrompt?: string | undefined;
  allowExternalLinks: boolean;
  enableWebSearch: boolean;
  includeSubdomains: boolean;
  showSources: boolean;
  ignoreInvalidURLs: boolean;
  webhook?: WebhookV2 | undefined;
  scrapeOptions?: ScrapeOptionsV2 | undefined;
  /** The caller sent `agent`, which is not used. */
  agentRequested: boolean;
}

interface ExtractFields {
  urls?: string[] | null | undefined;
  prompt?: string | undefined;
  schema?: unknown;
  enableWebSearch: boolean;
  threatProtection?: unknown;
}

const given = (text: string | undefined) => (text !== undefined && text.trim() !== '' ? text : undefined);

/**
 * Rules that span fields: a prompt or a schema; URLs, or web search with a prompt (as the
 * SDKs check before sending); and no `threatProtection`, which would promise a scan Tabhive does
 * not make.
 */
export function refineExtract(request: ExtractFields, ctx: z.RefinementCtx): void {
  const prompt = given(request.prompt);
  if (prompt === undefined && (request.schema === undefined || request.schema === null)) {
    ctx.addIssue({ code: 'custom', message: 'Either prompt or schema is required', path: [] });
  }
  if ((request.urls ?? []).length === 0 && !(request.enableWebSearch && prompt !== undefined)) {
    ctx.addIssue({
      code: 'custom',
      message: 'urls must list at least one URL, unless enableWebSearch is true and a prompt is given',
      path: ['urls'],
    });
  }
  if (request.threatProtection !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message:
        'threatProtection is a Firecrawl cloud feature that Tabhive does not offer; leave it out. ' +
        "Every URL is checked against this server's URL policy instead.",
      path: ['threatProtection'],
    });
  }
}

/** The parsed fields of either version, in the common shape. */
export function toExtractRequest(
  request: Omit<z.output<z.ZodObject<typeof extractFieldsShape>>, 'threatProtection'>,
  scrapeOptions: ScrapeOptionsV2 | undefined,
): ExtractRequest {
  return {
    urls: request.urls ?? [],
    prompt: given(request.prompt),
    ...(request.schema === undefined || request.schema === null ? {} : { schema: request.schema }),
    systemPrompt: given(request.systemPrompt),
    allowExternalLinks: request.allowExternalLinks,
    enableWebSearch: request.enableWebSearch,
    includeSubdomains: request.includeSubdomains,
    showSources: request.showSources,
    ignoreInvalidURLs: request.ignoreInvalidURLs,
    webhook: request.webhook,
    scrapeOptions,
    agentRequested: request.agent !== undefined,
  };
}

/**
 * Body of `POST /v2/extract`: URLs (an entry ending in `/*` means the whole site), a prompt
 * and/or a JSON Schema, and the scrape options each page gets. Strict, as every Firecrawl body.
 */
export const ExtractRequestV2 = strictBody(
  { ...extractFieldsShape, scrapeOptions: ScrapeOptionsV2.optional() },
  'v2',
)
  .superRefine(refineExtract)
  .transform(({ scrapeOptions, ...request }) => toExtractRequest(request, scrapeOptions));
