import type { PromptCrawlOptions } from './prompt-crawl-options';
import { OPTION_RULES } from './prompt-option-rules';
import { readPromptSections } from './read-prompt-sections';

/** Typographic quotes and runs of space become plain, so one pattern covers "don’t" and "don't". */
const normalize = (prompt: string) =>
  prompt
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[ \t]+/g, ' ');

/**
 * The crawl options a prompt asks for, read by rules rather than a model: limits, depth,
 * subdomains, sitemap use, query strings, external links, the whole domain, politeness delays,
 * de-duplication, and the sections to include or exclude. What it does not recognise it leaves
 * out; an empty answer means it understood nothing.
 */
export function parseCrawlPrompt(prompt: string): PromptCrawlOptions {
  const text = normalize(prompt);
  let options: PromptCrawlOptions = {};
  for (const rules of Object.values(OPTION_RULES)) {
    for (const { pattern, read } of rules) {
      const match = pattern.exec(text);
      const found = match === null ? undefined : read(match);
      if (found === undefined) continue;
      // An earlier rule's explicit value (an explicit limit, say) wins over a rule's side effect.
      options = { ...found, ...options };
      break;
    }
  }
  const { includePaths, excludePaths } = readPromptSections(text);
  if (includePaths.length > 0) options.includePaths = includePaths;
  if (excludePaths.length > 0) options.excludePaths = excludePaths;
  return options;
}
