import type { LlmProvider } from '../../platform/llm';
import type { Log } from '../../platform/log';
import { askLlmForCrawlOptions } from './ask-llm-for-crawl-options';
import { parseCrawlPrompt } from './parse-crawl-prompt';
import type { PromptCrawlOptions } from './prompt-crawl-options';

export interface PromptReading {
  options: PromptCrawlOptions;
  /** Who read the prompt: the configured model, or the built-in rules. */
  readBy: 'llm' | 'rules';
  warning?: string;
}

/** The prompt asked for nothing the reader could turn into options. */
export class PromptNotUnderstoodError extends Error {
  override name = 'PromptNotUnderstoodError';
}

/**
 * Turns a crawl prompt into crawl options (docs/wire-contract.md §6.3): the LLM when one is configured, the
 * rule-based reader otherwise, and also when the model fails or answers nothing usable (the answer
 * then carries a `warning` saying so). A prompt neither understands is a PromptNotUnderstoodError.
 */
export function createCrawlPromptReader({ llm, log }: { llm: LlmProvider | undefined; log: Log }) {
  return async function readCrawlPrompt({
    url,
    prompt,
  }: {
    url: string;
    prompt: string;
  }): Promise<PromptReading> {
    let fallbackReason: string | undefined;
    if (llm !== undefined) {
      try {
        const { options, dropped } = await askLlmForCrawlOptions(llm, { url, prompt });
        if (Object.keys(options).length > 0) {
          return {
            options,
            readBy: 'llm',
            ...(dropped.length > 0
              ? { warning: `Invalid generated options were left out: ${dropped.join(', ')}.` }
              : {}),
          };
        }
        fallbackReason = 'the model suggested no options';
      } catch (err) {
        fallbackReason = `the model failed (${err instanceof Error ? err.message : String(err)})`;
        log.warn('crawl prompt: the LLM failed; reading the prompt by rules', { error: fallbackReason });
      }
    }
    const options = parseCrawlPrompt(prompt);
    if (Object.keys(options).length === 0) throw new PromptNotUnderstoodError();
    return {
      options,
      readBy: 'rules',
      ...(fallbackReason === undefined
        ? {}
        : { warning: `The prompt was read by Tabhive's built-in rules because ${fallbackReason}.` }),
    };
  };
}

export type CrawlPromptReader = ReturnType<typeof createCrawlPromptReader>;
