import { askForSummary, LlmError, type LlmProvider } from '../../../platform/llm';
import { extractiveSummary } from './extractive-summary';
import type { FormatOutcome } from './json-format';

/**
 * The summary format: the LLM's summary when one is configured, else an extractive one. A failing
 * LLM does not fail the scrape: the extractive summary stands in and the warning says why.
 */
export async function summaryFormat(
  markdown: string,
  llm: LlmProvider | undefined,
): Promise<FormatOutcome<string>> {
  if (llm === undefined) return { value: extractiveSummary(markdown) };
  try {
    return { value: await askForSummary(llm, markdown) };
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    return {
      value: extractiveSummary(markdown),
      warning: `The LLM summary failed (${err.message}); an extractive summary was returned instead.`,
    };
  }
}
