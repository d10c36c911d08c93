import { type LlmProvider, MAX_PROMPT_CONTENT_CHARS } from './llm-provider';

/** A short plain-text summary of the page by the model. */
export async function askForSummary(llm: LlmProvider, content: string): Promise<string> {
  const answer = await llm.complete([
    {
      role: 'system',
      content: 'You summarise web pages in a few plain sentences, using only what the page says.',
    },
    { role: 'user', content: `Summarise this page:\n\n${content.slice(0, MAX_PROMPT_CONTENT_CHARS)}` },
  ]);
  return answer.trim();
}
