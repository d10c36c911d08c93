import { LlmError, type LlmProvider, MAX_PROMPT_CONTENT_CHARS } from '../../../platform/llm';
import type { FormatOutcome } from './json-format';
import { bestPassages } from './page-passages';

const SYSTEM_PROMPT =
  'You answer one question about one web page, briefly and using only what the page says. ' +
  'If the page does not answer the question, say that the page does not say.';

/** The page's passage that best answers the question, verbatim; '' when none shares a word with it. */
function quote(markdown: string, question: string): FormatOutcome<string> {
  const [passage] = bestPassages(markdown, question, 1);
  return passage === undefined
    ? { value: '', warning: 'No passage of the page matches the question.' }
    : { value: passage };
}

/**
 * The question format (and the older query format in `freeform` mode): the model's answer from
 * the page when an LLM is configured; otherwise, or when the model fails, the passage of the page
 * that best answers the question, with a warning saying no model answered.
 */
export async function questionFormat(
  markdown: string,
  question: string,
  llm: LlmProvider | undefined,
): Promise<FormatOutcome<string>> {
  let failure: string | undefined;
  if (llm !== undefined) {
    try {
      const answer = await llm.complete([
        { role: 'system', content: SYSTEM_PROMPT },
        {
          role: 'user',
          content: `Question: ${question}\n\nPage content (Markdown):\n${markdown.slice(0, MAX_PROMPT_CONTENT_CHARS)}`,
        },
      ]);
      return { value: answer.trim() };
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      failure = err.message;
    }
  }
  const passage = quote(markdown, question);
  if (passage.warning !== undefined) return passage;
  return {
    value: passage.value,
    warning:
      failure === undefined
        ? 'No LLM is configured, so no model answered the question: answer is the passage of the page that best matches it.'
        : `The LLM could not answer the question (${failure}): answer is the passage of the page that best matches it.`,
  };
}

/** The query format's `directQuote` mode: a passage of the page, verbatim, never a model's words. */
export const directQuoteFormat = (markdown: string, prompt: string) => quote(markdown, prompt);
