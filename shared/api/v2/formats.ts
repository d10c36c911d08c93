import { z } from 'zod';
import { JsonValue } from '../json-value';
import { Viewport } from '../viewport';

/** Format names that only the v1 API knows, with what to send to v2 instead. */
const V1_ONLY_FORMATS: Record<string, string> = {
  'screenshot@fullPage': '{ "type": "screenshot", "fullPage": true }',
  extract: '{ "type": "json" }',
};

/** Bounds of the attributes format: every selector is matched against the whole page. */
export const MAX_ATTRIBUTE_SELECTORS = 100;
export const MAX_SELECTOR_CHARS = 1_000;
export const MAX_ATTRIBUTE_NAME_CHARS = 256;
/** A question, highlights query or query prompt: as long as a json prompt. */
export const MAX_QUESTION_CHARS = 10_000;

/** The entity types a knowledgeGraph format may ask for. */
export const MAX_ENTITY_TYPES = 50;

const Question = z.string().trim().min(1).max(MAX_QUESTION_CHARS);

const formatObjects = [
  z.object({ type: z.literal('markdown') }),
  z.object({ type: z.literal('html') }),
  z.object({ type: z.literal('rawHtml') }),
  z.object({ type: z.literal('links') }),
  z.object({ type: z.literal('images') }),
  z.object({ type: z.literal('summary') }),
  z.object({ type: z.literal('branding') }),
  z.strictObject({
    type: z.literal('json'),
    /** A JSON Schema; the JS SDK converts zod schemas, so expect `$schema` and similar keys. */
    schema: JsonValue.optional(),
    prompt: z.string().max(10_000).optional(),
    /** The older place of the scrape's `checkPromptInjection` (the clients still send it here). */
    checkPromptInjection: z.boolean().optional(),
  }),
  z.strictObject({
    type: z.literal('changeTracking'),
    modes: z.array(z.enum(['json', 'git-diff'])).default(() => []),
    schema: JsonValue.optional(),
    prompt: z.string().optional(),
    /** Keeps a separate history per tag. */
    tag: z.string().nullable().default(null),
  }),
  z.object({
    type: z.literal('screenshot'),
    fullPage: z.boolean().default(false),
    quality: z.int().min(1).max(100).optional(),
    viewport: Viewport.optional(),
  }),
  /** Values of an attribute on the elements a CSS selector matches, read from the page's HTML. */
  z.strictObject({
    type: z.literal('attributes'),
    selectors: z
      .array(
        z.strictObject({
          selector: z.string().trim().min(1).max(MAX_SELECTOR_CHARS),
          attribute: z.string().trim().min(1).max(MAX_ATTRIBUTE_NAME_CHARS),
        }),
      )
      .min(1)
      .max(MAX_ATTRIBUTE_SELECTORS),
  }),
  /** The passages of the page that best answer `query`, verbatim. */
  z.strictObject({ type: z.literal('highlights'), query: Question }),
  /** An answer to `question` from the page. */
  z.strictObject({ type: z.literal('question'), question: Question }),
  /** The older form of question; `directQuote` answers with a passage of the page, verbatim. */
  z.strictObject({
    type: z.literal('query'),
    prompt: Question,
    mode: z.enum(['freeform', 'directQuote']).default('freeform'),
  }),
  /** Entities and relations of `entityTypes` (schema.org type names; all types when absent). */
  z.strictObject({
    type: z.literal('knowledgeGraph'),
    entityTypes: z.array(z.string().trim().min(1).max(100)).max(MAX_ENTITY_TYPES).optional(),
    prompt: z.string().max(10_000).optional(),
  }),
  z.object({ type: z.literal('product') }),
  z.object({ type: z.literal('menu') }),
  /** The URL of the page's audio or video file. */
  z.object({ type: z.literal('audio') }),
  z.object({ type: z.literal('video') }),
] as const;

/** The format names that `formats` accepts in place of `{ type }` objects. */
export const FormatNameV2 = z.enum(formatObjects.map((format) => format.shape.type.value));

/**
 * One entry of v2 `formats`: a format name or a format object, always parsed to the object
 * (`"html"` → `{ type: "html" }`). The objects with fields of their own (json, changeTracking,
 * attributes, highlights, question, query) are strict, so a `systemPrompt` or a misspelt field is
 * a 400; the others drop unknown keys. A name whose object needs fields (`"attributes"`,
 * `"question"`) is a 400 naming the missing field.
 */
export const FormatV2 = z.preprocess(
  (entry, ctx) => {
    const type = typeof entry === 'string' ? entry : (entry as { type?: unknown } | null)?.type;
    if (typeof type === 'string' && Object.hasOwn(V1_ONLY_FORMATS, type)) {
      ctx.addIssue({
        code: 'custom',
        message: `The "${type}" format exists only in the v1 API; in v2 use ${V1_ONLY_FORMATS[type]}`,
      });
    }
    return typeof entry === 'string' ? { type: entry } : entry;
  },
  z.discriminatedUnion('type', formatObjects),
);
export type FormatV2 = z.infer<typeof FormatV2>;
export type FormatTypeV2 = FormatV2['type'];

/** v2 `formats`: names and objects may be mixed; the output is always the objects. */
export const FormatsV2 = z
  .array(FormatV2)
  .superRefine((formats, ctx) => {
    const count = (...types: string[]) => formats.filter((f) => types.includes(f.type)).length;
    if (count('screenshot') > 1) {
      ctx.addIssue({ code: 'custom', message: 'You may only specify one screenshot format' });
    }
    if (count('attributes') > 1) {
      ctx.addIssue({ code: 'custom', message: 'You may only specify one attributes format' });
    }
    if (count('knowledgeGraph') > 1) {
      ctx.addIssue({ code: 'custom', message: 'You may only specify one knowledgeGraph format' });
    }
    if (count('highlights') > 1) {
      ctx.addIssue({ code: 'custom', message: 'You may only specify one highlights format' });
    }
    // Both answer in the document's one `answer` field.
    if (count('question', 'query') > 1) {
      ctx.addIssue({ code: 'custom', message: 'You may only specify one question or query format' });
    }
    const types = new Set(formats.map((f) => f.type));
    if (types.has('changeTracking') && !types.has('markdown')) {
      ctx.addIssue({
        code: 'custom',
        message: 'The changeTracking format requires the markdown format to be specified as well',
      });
    }
  })
  .default(() => [{ type: 'markdown' as const }]);
export type FormatsV2 = z.infer<typeof FormatsV2>;
