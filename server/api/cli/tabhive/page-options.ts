import type { Command } from 'commander';
import { commaList } from './option-parsers';

/** Options shared by scrape, crawl and batch: what each page becomes. */
export const addPageOptions = (command: Command) =>
  command
    .option(
      '-f, --formats <list>',
      'formats, comma-separated: markdown, html, rawHtml, links, images, screenshot, summary, … (default markdown)',
      commaList,
    )
    .option('--only-main-content', "only the page's main content (the server's default)")
    .option('--no-only-main-content', 'the whole page, navigation and footers included');

/** The scrape options the page options above stand for, as the API names them. */
export const pageOptionsBody = (options: { formats?: string[]; onlyMainContent?: boolean }) => ({
  ...(options.formats === undefined ? {} : { formats: options.formats }),
  ...(options.onlyMainContent === undefined ? {} : { onlyMainContent: options.onlyMainContent }),
});
