import { z } from 'zod';
import { JsonValue } from '../json-value';
import { strictBody } from '../strict-body';
import { MAX_AGENT_PROMPT_LENGTH } from '../v2/agent-request';

/**
 * `POST /v1/deep-research` as FirecrawlAppV1 (js) and V1FirecrawlApp (py) send it: `query` (the
 * older `__asyncDeepResearch` sends `topic`), the research bounds with Firecrawl's documented
 * ranges and defaults, the final analysis's prompts and formats. `origin` and the experimental
 * streaming flag are accepted and ignored.
 */
export const DeepResearchRequestV1 = strictBody(
  {
    query: z.string().trim().min(1).max(MAX_AGENT_PROMPT_LENGTH).optional(),
    topic: z.string().trim().min(1).max(MAX_AGENT_PROMPT_LENGTH).optional(),
    maxDepth: z.int().min(1).max(10).default(7),
    timeLimit: z.int().min(30).max(300).default(270),
    maxUrls: z.int().min(1).max(1000).default(20),
    analysisPrompt: z.string().max(MAX_AGENT_PROMPT_LENGTH).nullish(),
    systemPrompt: z.string().max(MAX_AGENT_PROMPT_LENGTH).nullish(),
    formats: z.array(z.enum(['markdown', 'json'])).default(['markdown']),
    jsonOptions: z
      .strictObject({
        prompt: z.string().max(MAX_AGENT_PROMPT_LENGTH).nullish(),
        schema: JsonValue.nullish(),
        systemPrompt: z.string().max(MAX_AGENT_PROMPT_LENGTH).nullish(),
      })
      .nullish(),
    origin: z.string().max(200).optional(),
    integration: z.string().max(200).nullish(),
    __experimental_streamSteps: z.boolean().nullish(),
  },
  'v1',
)
  .superRefine((request, ctx) => {
    if (request.query === undefined && request.topic === undefined) {
      ctx.addIssue({ code: 'custom', message: 'query is required', path: ['query'] });
    }
    const schema = request.jsonOptions?.schema;
    if (schema !== undefined && schema !== null && (typeof schema !== 'object' || Array.isArray(schema))) {
      ctx.addIssue({
        code: 'custom',
        message: 'jsonOptions.schema must be a JSON Schema object',
        path: ['jsonOptions', 'schema'],
      });
    }
  })
  .transform(({ query, topic, ...rest }) => ({ ...rest, query: (query ?? topic) as string }));
export type DeepResearchRequestV1 = z.infer<typeof DeepResearchRequestV1>;
