import type { z } from 'zod';
import { toIssueDetails } from '../../../shared/api/zod-issues';
import { errors } from '../errors';

/**
 * Parses a request body with its schema, or throws Firecrawl's 400 with the zod issues as details
 * and, in its message, what is wrong in words (the body is handed along so that a mistyped value
 * can be quoted and a near one suggested).
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw errors.badRequest(toIssueDetails(parsed.error), body);
  return parsed.data;
}
