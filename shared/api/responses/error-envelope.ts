import { z } from 'zod';

/** Firecrawl's error body (docs/wire-contract.md §1.6): what every failed request answers, with few exceptions. */
export const ErrorEnvelope = z.object({
  success: z.literal(false),
  /** A stable SCREAMING_SNAKE code (docs/wire-contract.md §1.8); absent on some errors, as in Firecrawl. */
  code: z.string().optional(),
  error: z.string(),
  /** zod issues for validation errors; other errors may carry extra facts. */
  details: z.unknown().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** The body of a failed cancel: Firecrawl leaves out `success` there (docs/wire-contract.md §1.6). */
export const CancelError = z.object({ error: z.string() });
