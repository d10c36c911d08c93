import { Command, Option } from 'commander';
import { MapResponse } from './api-responses';
import { contextOf } from './cli-context';
import { positiveInteger } from './option-parsers';
import { writeJson, writeOutput } from './write-output';

interface MapOptions {
  search?: string;
  limit?: number;
  sitemap?: string;
  includeSubdomains?: boolean;
  output?: string;
}

export function createMapCommand(): Command {
  return new Command('map')
    .description("list a site's URLs (sitemap, links, index), one a line")
    .argument('<url>', 'the site')
    .option('-s, --search <text>', 'rank the URLs by relevance to this text')
    .option('-l, --limit <n>', 'at most this many URLs', positiveInteger)
    .addOption(new Option('--sitemap <mode>', 'use the sitemap').choices(['include', 'skip', 'only']))
    .option('--no-include-subdomains', 'only the exact host')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(async (url: string, options: MapOptions, command: Command) => {
      const context = await contextOf(command);
      const { links } = await context.client.post(
        '/v2/map',
        {
          url,
          ...(options.search === undefined ? {} : { search: options.search }),
          ...(options.limit === undefined ? {} : { limit: options.limit }),
          ...(options.sitemap === undefined ? {} : { sitemap: options.sitemap }),
          ...(options.includeSubdomains === false ? { includeSubdomains: false } : {}),
        },
        MapResponse,
      );
      if (context.json && options.output === undefined) return writeJson(links);
      const text = context.json ? JSON.stringify(links, null, 2) : links.map((link) => link.url).join('\n');
      await writeOutput(text, options.output);
    });
}
