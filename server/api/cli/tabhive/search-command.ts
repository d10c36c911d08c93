import { Command } from 'commander';
import { SearchResponse, type SearchResult } from './api-responses';
import { contextOf } from './cli-context';
import { commaList, positiveInteger } from './option-parsers';
import { writeJson, writeOutput } from './write-output';

interface SearchOptions {
  limit?: number;
  scrape?: boolean;
  formats?: string[];
  output?: string;
}

/** One result as text: its title, URL and description, then its Markdown when it was scraped. */
function resultText(result: SearchResult, index: number): string {
  const lines = [`${index + 1}. ${result.title ?? result.url ?? ''}`];
  if (result.url !== undefined) lines.push(`   ${result.url}`);
  const about = result.description ?? result.snippet;
  if (about !== undefined && about !== '') lines.push(`   ${about}`);
  if (result.markdown !== undefined) lines.push('', result.markdown, '', '---');
  return lines.join('\n');
}

export function createSearchCommand(): Command {
  return new Command('search')
    .description("search the web (or the server's index), optionally scraping each result")
    .argument('<query>', 'what to look for')
    .option('-l, --limit <n>', 'at most this many results', positiveInteger)
    .option('--scrape', "scrape every result too (its Markdown, or --formats')")
    .option('-f, --formats <list>', 'with --scrape: formats of each result, comma-separated', commaList)
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(async (query: string, options: SearchOptions, command: Command) => {
      const context = await contextOf(command);
      const formats = options.scrape === true ? (options.formats ?? ['markdown']) : undefined;
      const { data } = await context.client.post(
        '/v2/search',
        {
          query,
          ...(options.limit === undefined ? {} : { limit: options.limit }),
          ...(formats === undefined ? {} : { scrapeOptions: { formats } }),
        },
        SearchResponse,
      );
      if (context.json) {
        if (options.output === undefined) return writeJson(data);
        return writeOutput(JSON.stringify(data, null, 2), options.output);
      }
      const results = [...(data.web ?? []), ...(data.news ?? [])];
      if (results.length === 0) console.error('No results.');
      await writeOutput(results.map(resultText).join('\n\n'), options.output);
    });
}
