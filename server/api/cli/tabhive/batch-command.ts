import { readFile } from 'node:fs/promises';
import { text as readAll } from 'node:stream/consumers';
import { Command } from 'commander';
import { UsageError } from '../usage-error';
import { contextOf } from './cli-context';
import { addJobOutputOptions, runJob, type JobOutputOptions } from './run-job';
import { addPageOptions, pageOptionsBody } from './page-options';

interface BatchOptions extends JobOutputOptions {
  formats?: string[];
  onlyMainContent?: boolean;
}

/** The URLs of a batch file: one a line; blank lines and `#` comments skipped. */
export function urlsOfBatchFile(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

async function readBatchFile(file: string): Promise<string[]> {
  let text: string;
  try {
    text = file === '-' ? await readAll(process.stdin) : await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const urls = urlsOfBatchFile(text);
  if (urls.length === 0) throw new UsageError(`${file} has no URLs (one a line)`);
  return urls;
}

export function createBatchCommand(): Command {
  const command = new Command('batch')
    .description('scrape every URL of a file (one a line; - for stdin) as one batch job, with progress')
    .argument('[file]', 'the URL list (not needed with --resume)');
  return addJobOutputOptions(addPageOptions(command)).action(
    async (file: string | undefined, options: BatchOptions, self: Command) => {
      const context = await contextOf(self);
      const urls = file === undefined ? undefined : await readBatchFile(file);
      await runJob({
        kind: 'batch',
        context,
        options,
        start:
          urls === undefined
            ? undefined
            : { path: '/v2/batch/scrape', body: { urls, ...pageOptionsBody(options) } },
      });
    },
  );
}
