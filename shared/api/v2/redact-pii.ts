import { z } from 'zod';

/** The kinds of personal data `redactPII` looks for, named as Firecrawl's clients name them. */
export const PII_ENTITIES = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const;
export const PiiEntity = z.enum(PII_ENTITIES);
export type PiiEntity = z.infer<typeof PiiEntity>;

/**
 * `redactPII`: `true` for every entity in the default mode and style, `false` (or absent) for
 * none, or the object form. Strict, so that a misspelt key is a 400 rather than a redaction that
 * silently did less than asked.
 */
export const RedactPii = z.union(
  [
    z.boolean(),
    z.strictObject({
      /** `fast` uses patterns only; `accurate` (default) adds the LLM for names and places; `aggressive` also looser patterns. */
      mode: z.enum(['accurate', 'aggressive', 'fast']).optional(),
      /** Absent means all of them. */
      entities: z
        .array(PiiEntity)
        .min(1, { error: 'entities must name at least one entity; leave it out for all of them' })
        .optional(),
      /** `tag` (default) writes `<EMAIL>`, `mask` as many `*` as the span had characters, `remove` nothing. */
      replaceStyle: z.enum(['tag', 'mask', 'remove']).optional(),
    }),
  ],
  {
    // The union's own word is "Invalid input"; the issues of the object form follow in `errors`.
    error: 'redactPII must be true, false or { mode?, entities?, replaceStyle? }',
  },
);
export type RedactPii = z.infer<typeof RedactPii>;

export interface RedactionSettings {
  mode: 'accurate' | 'aggressive' | 'fast';
  entities: ReadonlySet<PiiEntity>;
  replaceStyle: 'tag' | 'mask' | 'remove';
}

/** What a request's `redactPII` asks for, with the defaults filled in; undefined when nothing. */
export function redactionSettings(option: RedactPii | undefined): RedactionSettings | undefined {
  if (option === undefined || option === false) return undefined;
  const given = option === true ? {} : option;
  return {
    mode: given.mode ?? 'accurate',
    entities: new Set(given.entities ?? PII_ENTITIES),
    replaceStyle: given.replaceStyle ?? 'tag',
  };
}

/**
 * `redactPII` with the changeTracking format is refused: the change history keeps the page's
 * Markdown to compare the next scrape with, and that copy would not be redacted.
 */
export function refineRedactPii(
  options: {
    redactPII?: RedactPii | undefined;
    formats?: ReadonlyArray<{ type: string } | string> | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (redactionSettings(options.redactPII) === undefined) return;
  const tracksChanges = (options.formats ?? []).some(
    (format) => (typeof format === 'string' ? format : format.type) === 'changeTracking',
  );
  if (tracksChanges) {
    ctx.addIssue({
      code: 'custom',
      path: ['redactPII'],
      message:
        'redactPII cannot be combined with the changeTracking format: the change history would keep the unredacted Markdown',
    });
  }
}
