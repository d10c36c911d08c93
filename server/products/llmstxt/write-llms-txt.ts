import type { LlmsTxtPage } from './llms-txt-spec';

/** Link text cannot hold an unbalanced bracket or a line break. */
const linkText = (text: string) => text.replace(/\s+/g, ' ').replace(/[[\]]/g, '').trim();
/** A URL in a Markdown link cannot hold spaces or an unbalanced parenthesis. */
const linkTarget = (url: string) => url.replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');

/** The site's heading and summary, from its start page (the first of `pages`). */
function header(site: { name: string; summary: string }): string {
  return `# ${linkText(site.name)}\n\n${site.summary === '' ? '' : `> ${site.summary}\n\n`}`;
}

/**
 * llms.txt in the llmstxt.org layout: the site's name as the heading, its summary as a quote, and
 * one list item per page: `- [title](url): description`.
 */
export function writeLlmsTxt(site: { name: string; summary: string }, pages: readonly LlmsTxtPage[]): string {
  const items = pages.map((page) => {
    const description = page.description === '' ? '' : `: ${page.description}`;
    return `- [${linkText(page.title) || page.url}](${linkTarget(page.url)})${description}`;
  });
  return `${header(site)}## Pages\n\n${items.join('\n')}\n`;
}

/**
 * llms-full.txt: the same heading, then every page's Markdown under its own heading with its
 * source, in the order of llms.txt, cut (and saying so) where it would pass `maxChars`.
 */
export function writeLlmsFullTxt(
  site: { name: string; summary: string },
  pages: readonly LlmsTxtPage[],
  maxChars: number,
): { text: string; cut: boolean } {
  let text = header(site);
  for (const page of pages) {
    const section = `## ${linkText(page.title) || page.url}\n\nSource: ${page.url}\n\n${page.markdown.trim()}\n\n`;
    if (text.length + section.length > maxChars) return { text, cut: true };
    text += section;
  }
  return { text, cut: false };
}
