import { Command } from 'commander';
import { ScrapeResponse } from './api-responses';
import { contextOf } from './cli-context';
import { positiveInteger } from './option-parsers';
import { addPageOptions, pageOptionsBody } from './page-options';
import { dataUrlBytes, renderDocument } from './render-document';
import { writeJson, writeOutput } from './write-output';

interface ScrapeOptions {
  formats?: string[];
  onlyMainContent?: boolean;
  waitFor?: number;
  timeout?: number;
  output?: string;
}

export function createScrapeCommand(): Command {
  return addPageOptions(
    new Command('scrape')
      .description('scrape one page; prints its Markdown (or the one format asked for)')
      .argument('<url>', 'the page'),
  )
    .option('--wait-for <ms>', 'wait this long after the page loaded', positiveInteger)
    .option('--timeout <ms>', 'give up after this long', positiveInteger)
    .option('-o, --output <file>', 'write to this file instead of stdout (a screenshot as PNG bytes)')
    .addHelpText(
      'after',
      '\nSeveral formats print the whole document as JSON; --json prints the document as the API sent it.',
    )
    .action(async (url: string, options: ScrapeOptions, command: Command) => {
      const context = await contextOf(command);
      const { data } = await context.client.post(
        '/v2/scrape',
        {
          url,
          ...pageOptionsBody(options),
          ...(options.waitFor === undefined ? {} : { waitFor: options.waitFor }),
          ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
        },
        ScrapeResponse,
      );
      if (data.warning !== undefined) console.error(`warning: ${data.warning}`);
      if (context.json) {
        if (options.output === undefined) return writeJson(data);
        return writeOutput(JSON.stringify(data, null, 2), options.output);
      }
      const text = renderDocument(data, options.formats);
      const bytes = options.output === undefined ? undefined : dataUrlBytes(text);
      await writeOutput(bytes ?? text, options.output);
    });
}
