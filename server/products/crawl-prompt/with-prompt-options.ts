import { PROMPT_OPTION_KEYS, type PromptCrawlOptions } from './prompt-crawl-options';

type Body = Record<string, unknown>;

const isObject = (body: unknown): body is Body =>
  body !== null && typeof body === 'object' && !Array.isArray(body);

/** A crawl body carries a prompt to read: a non-empty string (an empty one is ignored, docs/wire-contract.md §6.1). */
export function promptOf(body: unknown): string | undefined {
  return isObject(body) && typeof body.prompt === 'string' && body.prompt.trim() !== ''
    ? body.prompt
    : undefined;
}

/** The body without options sent as null: with a prompt, null means "let the prompt decide". */
export function withoutNullOptions(body: unknown): unknown {
  if (!isObject(body)) return body;
  return Object.fromEntries(
    Object.entries(body).filter(
      ([key, value]) => !(value === null && (PROMPT_OPTION_KEYS as string[]).includes(key)),
    ),
  );
}

/**
 * The crawl body with the prompt's options filled in where the caller sent none: what the caller
 * set explicitly always wins (docs/wire-contract.md §6.1). `maxDepth` is v1's and has no place in a v2 crawl.
 */
export function withPromptOptions(body: unknown, options: PromptCrawlOptions): unknown {
  if (!isObject(body)) return body;
  const merged: Body = { ...body };
  for (const [key, value] of Object.entries(options)) {
    if (key === 'maxDepth' || value === undefined) continue;
    if (merged[key] === undefined) merged[key] = value;
  }
  return merged;
}
