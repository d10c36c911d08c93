import { LlmError, type LlmProvider } from '../../platform/llm';
import type { Log } from '../../platform/log';
import { splitSentences } from '../../scrape/enrich';
import { DESCRIBE_INPUT_CHARS, MAX_DESCRIPTION_CHARS } from './llms-txt-limits';

/** One line, at most MAX_DESCRIPTION_CHARS, cut at a word with an ellipsis. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= MAX_DESCRIPTION_CHARS) return line;
  const cut = line.slice(0, MAX_DESCRIPTION_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_DESCRIPTION_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** What the page says it is without a model: its own description, else its first sentence. */
export function statedDescription(description: string | undefined, markdown: string): string {
  if (description !== undefined && description.trim() !== '') return oneLine(description);
  return oneLine(splitSentences(markdown)[0] ?? '');
}

/**
 * The page in one line: the model's sentence when one is configured, otherwise (or when the model
 * fails, which is logged) what the page states about itself.
 */
export async function describePage(
  page: { url: string; title: string; description: string | undefined; markdown: string },
  { llm, log }: { llm: LlmProvider | undefined; log: Log },
): Promise<string> {
  const stated = statedDescription(page.description, page.markdown);
  if (llm === undefined || page.markdown.trim() === '') return stated;
  try {
    const answer = await llm.complete([
      {
        role: 'system',
        content:
          'You describe a web page in one plain sentence of at most 25 words, for a list of a ' +
          "site's pages. Say what the page offers; use only what the page says; no preamble.",
      },
      {
        role: 'user',
        content: `Title: ${page.title}\nURL: ${page.url}\n\n${page.markdown.slice(0, DESCRIBE_INPUT_CHARS)}`,
      },
    ]);
    const line = oneLine(answer);
    return line === '' ? stated : line;
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    log.warn('llms.txt page description by the model failed; using the page’s own', {
      url: page.url,
      error: err.message,
    });
    return stated;
  }
}
