import type { FormatV2 } from './formats';

/**
 * Whether a scrape asks for prompt-injection screening: `checkPromptInjection` on the scrape, or
 * on a json format (where Firecrawl's clients first put it, and still may). The server screens
 * the page before any model format reads it, for SCREEN_CREDITS more.
 */
export function asksInjectionScreen(request: {
  checkPromptInjection?: boolean | undefined;
  formats: readonly FormatV2[];
}): boolean {
  return (
    request.checkPromptInjection === true ||
    request.formats.some((format) => format.type === 'json' && format.checkPromptInjection === true)
  );
}
