import { Command } from 'commander';
import { contextOf } from './cli-context';
import { nonNegativeInteger, positiveInteger, repeatable } from './option-parsers';
import { addJobOutputOptions, runJob, type JobOutputOptions } from './run-job';
import { addPageOptions, pageOptionsBody } from './page-options';

interface CrawlOptions extends JobOutputOptions {
  limit?: number;
  include?: string[];
  exclude?: string[];
  maxDepth?: number;
  crawlEntireDomain?: boolean;
  allowSubdomains?: boolean;
  formats?: string[];
  onlyMainContent?: boolean;
}

export function createCrawlCommand(): Command {
  const command = new Command('crawl')
    .description(
      'crawl a site: follow its links from a page, with progress, streaming the pages as they complete',
    )
    .argument('[url]', 'the start page (not needed with --resume)')
    .option('-l, --limit <n>', 'at most this many pages', positiveInteger)
    .option('--include <regex>', 'only paths matching this regular expression (repeatable)', repeatable)
    .option('--exclude <regex>', 'no paths matching this regular expression (repeatable)', repeatable)
    .option('--max-depth <n>', 'follow links at most this many hops from the start', nonNegativeInteger)
    .option('--crawl-entire-domain', 'also pages outside the start path (siblings, parents)')
    .option('--allow-subdomains', 'also pages on subdomains');
  return addJobOutputOptions(addPageOptions(command)).action(
    async (url: string | undefined, options: CrawlOptions, self: Command) => {
      const context = await contextOf(self);
      const scrapeOptions = pageOptionsBody(options);
      await runJob({
        kind: 'crawl',
        context,
        options,
        start:
          url === undefined
            ? undefined
            : {
                path: '/v2/crawl',
                body: {
                  url,
                  ...(options.limit === undefined ? {} : { limit: options.limit }),
                  ...(options.include === undefined ? {} : { includePaths: options.include }),
                  ...(options.exclude === undefined ? {} : { excludePaths: options.exclude }),
                  ...(options.maxDepth === undefined ? {} : { maxDiscoveryDepth: options.maxDepth }),
                  ...(options.crawlEntireDomain === true ? { crawlEntireDomain: true } : {}),
                  ...(options.allowSubdomains === true ? { allowSubdomains: true } : {}),
                  ...(Object.keys(scrapeOptions).length === 0 ? {} : { scrapeOptions }),
                },
              },
        ...(url === undefined ? {} : { startHost: URL.parse(url)?.host }),
      });
    },
  );
}
