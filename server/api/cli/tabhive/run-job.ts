import type { Command } from 'commander';
import { UsageError } from '../usage-error';
import { JobStarted } from './api-responses';
import type { CliContext } from './cli-context';
import { JobFailed, EXIT, PagesFailed } from './exit-codes';
import { followJob, type JobKind, type JobOutcome } from './follow-job';
import { createJobProgress } from './job-progress';
import { openJsonlSink, openMarkdownDirSink, stdoutSink, type PageSink } from './page-sinks';
import { writeJson, writeOutput } from './write-output';

/** Output and resume options of crawl and batch. */
export interface JobOutputOptions {
  output?: string;
  outDir?: string;
  resume?: string;
  /** The page formats asked for: --out-dir needs Markdown among them. */
  formats?: string[];
}

export const addJobOutputOptions = (command: Command) =>
  command
    .option('-o, --output <file>', 'write the pages to this JSON Lines file as they complete')
    .option('--out-dir <folder>', 'write one Markdown file a page into this folder, with index.jsonl')
    .option('--resume <job id>', 'follow an existing job; pages already in the output are not written again')
    .addHelpText(
      'after',
      `
Without -o or --out-dir the pages go to stdout as JSON Lines and the summary to stderr.
Progress goes to stderr: a bar on a terminal, a plain line every few seconds otherwise (--quiet: none).
Ctrl-C stops following; the job goes on on the server, and --resume <job id> picks it up again.`,
    );

const NOUN: Record<JobKind, string> = { crawl: 'Crawl', batch: 'Batch' };
const FAILED_PAGES_SHOWN = 10;

async function openSink(options: JobOutputOptions, startHost: string | undefined): Promise<PageSink> {
  if (options.output !== undefined && options.outDir !== undefined)
    throw new UsageError('give -o <file> or --out-dir <folder>, not both');
  if (options.outDir !== undefined && options.formats !== undefined && !options.formats.includes('markdown'))
    throw new UsageError(
      '--out-dir writes Markdown files: add markdown to --formats, or use -o for JSON Lines',
    );
  const resume = options.resume !== undefined;
  if (options.output !== undefined) return openJsonlSink(options.output, { resume });
  if (options.outDir !== undefined)
    return openMarkdownDirSink(options.outDir, { resume, ...(startHost === undefined ? {} : { startHost }) });
  return stdoutSink();
}

const pages = (count: number) => `${count} ${count === 1 ? 'page' : 'pages'}`;

/** `Batch <id> completed: 1 of 3 pages, 2 failed, 1 written to stdout, 1 credits.` */
export function summaryText(kind: JobKind, outcome: JobOutcome, target: string): string {
  const done =
    outcome.failed.length === 0
      ? pages(outcome.completed)
      : `${outcome.completed} of ${pages(outcome.total)}, ${outcome.failed.length} failed`;
  const already = outcome.skipped === 0 ? '' : `, ${outcome.skipped} already there`;
  const credits = outcome.creditsUsed === undefined ? '' : `, ${outcome.creditsUsed} credits`;
  return `${NOUN[kind]} ${outcome.id} ${outcome.status}: ${done}, ${outcome.written} written to ${target}${already}${credits}.`;
}

/**
 * Starts a crawl or batch job (or takes the one to resume), follows it with a progress display,
 * streams its pages to the output, and prints the summary. Throws JobFailed when the job ended
 * failed or cancelled.
 */
export async function runJob({
  kind,
  context,
  options,
  start,
  startHost,
}: {
  kind: JobKind;
  context: CliContext;
  options: JobOutputOptions;
  /** POST path and body that start the job; unused when resuming. */
  start: { path: string; body: unknown } | undefined;
  startHost?: string;
}): Promise<void> {
  const sink = await openSink(options, startHost);
  let id = options.resume;
  if (id === undefined) {
    if (start === undefined) throw new UsageError(`${kind} needs what to scrape, or --resume <job id>`);
    const started = await context.client.post(start.path, start.body, JobStarted);
    id = started.id;
    if (started.invalidURLs !== undefined && started.invalidURLs.length > 0)
      console.error(`Skipped ${started.invalidURLs.length} invalid URLs: ${started.invalidURLs.join(', ')}`);
    if (started.warning !== undefined) console.error(`warning: ${started.warning}`);
    console.error(`${NOUN[kind]} ${id} started.`);
  }
  const progress = context.quiet ? undefined : createJobProgress({ label: `${kind} ${id.slice(0, 8)}` });
  const jobId = id;
  const interrupted = () => {
    progress?.stop();
    const output =
      options.output !== undefined
        ? ` -o ${options.output}`
        : options.outDir !== undefined
          ? ` --out-dir ${options.outDir}`
          : '';
    console.error(
      `\nStopped following ${kind} ${jobId}; it goes on on the server. Resume with:\n  ${context.command} ${kind} --resume ${jobId}${output}`,
    );
    process.exit(EXIT.INTERRUPTED);
  };
  process.once('SIGINT', interrupted);
  let outcome: JobOutcome;
  try {
    outcome = await followJob({ client: context.client, kind, id, sink, progress });
  } finally {
    process.removeListener('SIGINT', interrupted);
    progress?.stop();
    await sink.close();
  }

  if (outcome.warning !== undefined) console.error(`warning: ${outcome.warning}`);
  if (outcome.failed.length > 0) {
    console.error(`${pages(outcome.failed.length)} failed:`);
    for (const failure of outcome.failed.slice(0, FAILED_PAGES_SHOWN))
      console.error(`  ${failure.url ?? '?'}: ${failure.error ?? 'failed'}`);
    if (outcome.failed.length > FAILED_PAGES_SHOWN)
      console.error(`  … and ${outcome.failed.length - FAILED_PAGES_SHOWN} more (--json lists them all)`);
  }
  const toStdout = options.output === undefined && options.outDir === undefined;
  if (context.json && !toStdout) await writeJson({ ...outcome, output: sink.target });
  else if (toStdout) console.error(summaryText(kind, outcome, sink.target));
  else await writeOutput(summaryText(kind, outcome, sink.target), undefined);

  if (outcome.status === 'failed' || outcome.status === 'cancelled')
    throw new JobFailed(
      `${kind} ${outcome.id} ended ${outcome.status}${outcome.error === undefined ? '' : `: ${outcome.error}`}`,
    );
  if (outcome.failed.length > 0)
    throw new PagesFailed(
      `${outcome.failed.length} of ${pages(outcome.total)} of ${kind} ${outcome.id} failed (listed above)`,
    );
}
