import { z } from 'zod';
import { JsonValue } from '../json-value';
import { strictBody } from '../strict-body';
import { UrlInput } from '../url-input';
import { webhookOption } from './crawl-webhook';
import { queryCount } from '../query-count';

/** Longest agent `prompt` (and deep research `query`, prompts), in characters. */
export const MAX_AGENT_PROMPT_LENGTH = 10_000;
/** Most `urls` one agent run takes. */
export const MAX_AGENT_URLS = 100;
/** The server's maximum of model turns per run: `maxSteps` may ask for fewer, never more. */
export const MAX_AGENT_STEPS = 30;
/** The longest run a request may ask for with `timeout` (ms). */
export const MAX_AGENT_TIMEOUT_MS = 15 * 60_000;

export const AGENT_WEBHOOK_EVENTS = ['started', 'action', 'completed', 'failed', 'cancelled'] as const;
export type AgentWebhookEvent = (typeof AGENT_WEBHOOK_EVENTS)[number];

/** `webhook` of an agent run: a URL, or Firecrawl's AgentWebhookConfig. Normalised to the object. */
export const AgentWebhook = webhookOption(AGENT_WEBHOOK_EVENTS);
export type AgentWebhook = z.infer<typeof AgentWebhook>;

const unsupported = (ctx: z.RefinementCtx, path: string, message: string) =>
  ctx.addIssue({ code: 'custom', message, path: [path] });

/**
 * Body of `POST /v2/agent` as firecrawl-js and firecrawl-py send it (prepareAgentPayload), plus
 * two Tabhive fields: `maxSteps` (model turns, at most MAX_AGENT_STEPS) and `timeout` (ms). Threads,
 * Exchange providers and threat protection are Firecrawl cloud features: a request that needs
 * them is refused with a message that says so, rather than run without them.
 */
export const AgentRequestV2 = strictBody(
  {
    urls: z.array(UrlInput).max(MAX_AGENT_URLS).nullish(),
    prompt: z.string().trim().min(1, { error: 'prompt must not be empty' }).max(MAX_AGENT_PROMPT_LENGTH),
    /** A JSON Schema for `data`; the JS SDK converts zod schemas, firecrawl-py pydantic models. */
    schema: JsonValue.nullish(),
    integration: z.string().max(200).nullish(),
    origin: z.string().max(200).optional(),
    maxCredits: z.number().positive().max(1_000_000).nullish(),
    strictConstrainToURLs: z.boolean().nullish(),
    /** Firecrawl's model names; Tabhive runs LLM_MODEL whatever is asked, and says which. */
    model: z.string().max(100).nullish(),
    effort: z.enum(['low', 'medium', 'high']).nullish(),
    webhook: AgentWebhook.nullish(),
    mode: z.enum(['extract', 'chat']).nullish(),
    threadId: z.string().max(200).nullish(),
    exchange: z.looseObject({ enabled: z.boolean().optional() }).nullish(),
    threatProtection: z.unknown().optional(),
    auditMetadata: z.record(z.string(), z.unknown()).nullish(),
    maxSteps: z.int().min(1).max(MAX_AGENT_STEPS).optional(),
    timeout: z.int().min(1_000).max(MAX_AGENT_TIMEOUT_MS).optional(),
    /** Screen every page the agent reads for prompt injection; a flagged page never reaches the model. */
    checkPromptInjection: z.boolean().optional(),
  },
  'v2',
).superRefine((request, ctx) => {
  if (request.strictConstrainToURLs === true && (request.urls ?? []).length === 0) {
    unsupported(ctx, 'strictConstrainToURLs', 'strictConstrainToURLs needs urls to constrain the agent to');
  }
  if (request.schema !== undefined && request.schema !== null) {
    if (typeof request.schema !== 'object' || Array.isArray(request.schema)) {
      unsupported(ctx, 'schema', 'schema must be a JSON Schema object');
    }
  }
  if (request.threadId !== undefined && request.threadId !== null) {
    unsupported(
      ctx,
      'threadId',
      'Continuing a thread is not supported by Tabhive: every agent run stands alone. Leave threadId out and put what the run needs in the prompt.',
    );
  }
  if (request.exchange?.enabled === true) {
    unsupported(
      ctx,
      'exchange',
      'Exchange providers are a Firecrawl cloud feature that Tabhive does not offer.',
    );
  }
  if (request.threatProtection !== undefined && request.threatProtection !== null) {
    unsupported(
      ctx,
      'threatProtection',
      "threatProtection is a Firecrawl cloud feature that Tabhive does not offer; leave it out. Every URL is checked against this server's URL policy instead.",
    );
  }
});
export type AgentRequestV2 = z.infer<typeof AgentRequestV2>;

/** `GET /v2/agent` query: runs created before this Unix time in ms. */
export const AgentListQuery = z.object({
  before: queryCount(1).optional(),
});

/** Job ids are UUIDs; anything else is a 404 without a store read. */
export const AgentJobId = z.uuid();
