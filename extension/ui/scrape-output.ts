import type { HandScrape } from './convert-capture';

export type TextFormat = 'markdown' | 'html' | 'links';

export interface TextOutput {
  text: string;
  /** What the download is served as; the charset keeps non-ASCII text intact in every viewer. */
  mimeType: string;
  extension: string;
}

/** The file name extension each text format downloads with. */
export const TEXT_EXTENSIONS: Readonly<Record<TextFormat, string>> = {
  markdown: 'md',
  html: 'html',
  links: 'txt',
};

/** A hand scrape in one text format, as copied to the clipboard or downloaded. */
export function scrapeOutput(scrape: HandScrape, format: TextFormat): TextOutput {
  switch (format) {
    case 'markdown':
      return {
        text: scrape.markdown,
        mimeType: 'text/markdown;charset=utf-8',
        extension: TEXT_EXTENSIONS.markdown,
      };
    case 'html':
      return { text: scrape.html, mimeType: 'text/html;charset=utf-8', extension: TEXT_EXTENSIONS.html };
    case 'links':
      // One URL per line: what a shell, a spreadsheet or another crawler reads without parsing.
      return {
        text: scrape.links.join('\n'),
        mimeType: 'text/plain;charset=utf-8',
        extension: TEXT_EXTENSIONS.links,
      };
  }
}
