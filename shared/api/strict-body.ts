import { z } from 'zod';

/**
 * A request body that refuses unknown keys with Firecrawl's wording (docs/wire-contract.md §1.4):
 * `{ code: 'unrecognized_keys', keys, path: [], message: 'Unrecognized key in body -- …' }`.
 * Firecrawl's v1 schemas and its v2 search schema point to the v1 documentation.
 */
export function strictBody<Shape extends z.core.$ZodLooseShape>(shape: Shape, docs: 'v1' | 'v2') {
  const message = `Unrecognized key in body -- please review the ${docs} API documentation for request body changes`;
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? message : undefined),
  });
}
