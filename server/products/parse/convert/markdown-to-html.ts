import { Marked } from 'marked';
import { htmlDocument } from './html-text';

/**
 * A Markdown document as HTML (CommonMark with GitHub's tables and strikethrough, by marked), so
 * that links, images and the other formats come from it as from any page. Raw HTML in the
 * Markdown passes through: the pipeline cleans it like a page's (it is never run in a browser).
 */
export function markdownToHtml(markdown: string, fallbackTitle: string): string {
  const html = new Marked({ gfm: true, async: false }).parse(markdown) as string;
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1];
  return htmlDocument(html, { title: heading ?? fallbackTitle });
}
