import { RE2JS } from 're2js';
import { LlmError, type ChatMessage, type LlmProvider } from '../../platform/llm';
import { PROMPT_OPTION_KEYS, PromptCrawlOptions } from './prompt-crawl-options';

const SYSTEM_PROMPT = `You turn a user's description of a web crawl into crawl options. Answer with one JSON object holding only the options the description asks for, and nothing else:
- includePaths, excludePaths: arrays of regular expressions (RE2 syntax, no lookaround) matched anywhere in the URL path, such as "blog/.*" or "^/docs/";
- limit: most pages to crawl;
- maxDiscoveryDepth: how many links deep to follow from the start page (0 = start page only);
- crawlEntireDomain: true to go beyond the start URL's path (parents, siblings);
- allowSubdomains: true to crawl subdomains;
- allowExternalLinks: true to follow links to other sites;
- sitemap: "skip" to ignore the site's sitemap, "include" to use it;
- ignoreQueryParameters: true to treat URLs differing only in their query string as one page;
- deduplicateSimilarURLs: false to keep http/https, www and trailing-slash variants apart;
- delay: seconds to wait between pages.
Leave out every option the description does not mention. Answer {} if it asks for none.`;

function parseJson(text: string): unknown {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(text);
  return JSON.parse(fenced?.[1] ?? text) as unknown;
}

/**
 * Keeps what is valid of a model's answer, option by option: one wrong value costs that option, not
 * the rest; a path pattern RE2 cannot compile is dropped (and named in `dropped`).
 */
export function validOptions(answer: unknown): { options: PromptCrawlOptions; dropped: string[] } {
  const options: Record<string, unknown> = {};
  const dropped: string[] = [];
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return { options, dropped };
  for (const key of PROMPT_OPTION_KEYS) {
    const value = (answer as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    const parsed = PromptCrawlOptions.shape[key].safeParse(value);
    if (!parsed.success) {
      dropped.push(key);
      continue;
    }
    if (key === 'includePaths' || key === 'excludePaths') {
      const patterns = (parsed.data as string[]).filter((pattern) => {
        try {
          RE2JS.compile(pattern);
          return true;
        } catch {
          dropped.push(`${key} ${JSON.stringify(pattern)}`);
          return false;
        }
      });
      if (patterns.length > 0) options[key] = patterns;
    } else options[key] = parsed.data;
  }
  return { options: options as PromptCrawlOptions, dropped };
}

/** Asks the configured model for the options; a second try when the answer is not JSON. */
export async function askLlmForCrawlOptions(
  llm: LlmProvider,
  { url, prompt }: { url: string; prompt: string },
): Promise<{ options: PromptCrawlOptions; dropped: string[] }> {
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: `Start URL: ${url}\nDescription: ${prompt}` },
  ];
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await llm.complete(messages, { json: true });
    try {
      return validOptions(parseJson(answer));
    } catch {
      messages.push(
        { role: 'assistant', content: answer },
        { role: 'user', content: 'That was not valid JSON. Answer with the JSON object only.' },
      );
    }
  }
  throw new LlmError('the answer was not valid JSON, also after a retry');
}
