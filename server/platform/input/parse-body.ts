import type { z } from 'zod';
import { toIssueDetails } from '../../../shared/api/zod-issues';
import { errors } from '../errors';

/** Parses a request body with its schema, or throws Firecrawl's 400 with the zod issues as details. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw errors.badRequest(toIssueDetails(parsed.error));
  return parsed.data;
}
