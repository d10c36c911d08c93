import { Command, Option } from 'commander';
import { createKeysCommand } from '../keys/keys-command';
import { createBatchCommand } from './batch-command';
import { createCrawlCommand } from './crawl-command';
import { EXIT_CODES_HELP } from './exit-codes';
import { createMapCommand } from './map-command';
import { DEFAULT_API_URL } from './resolve-api-key';
import { createScrapeCommand } from './scrape-command';
import { createSearchCommand } from './search-command';

const helpAfter = (command: string) => `
The server: --api-url, else TABHIVE_API_URL, else ${DEFAULT_API_URL}.
The API key: --api-key, else TABHIVE_API_KEY, else (for a server on this machine only) the key file
a local server wrote on its first start, $DATA_DIR/api-key (DATA_DIR defaults to ./data, as for
the server).

--json prints one machine-readable result on stdout. Output is plain text (no colours or escape
codes) except the progress bar of crawl and batch, drawn on stderr only when it is a terminal.
Errors go to stderr, in the API's own words.

${EXIT_CODES_HELP}

Examples:
  ${command} scrape https://example.com
  ${command} scrape https://example.com --formats links -o links.txt
  ${command} crawl https://example.com/docs/ --limit 100 -o docs.jsonl
  ${command} crawl https://example.com/docs/ --limit 100 --out-dir docs/
  ${command} crawl --resume <job id> -o docs.jsonl
  ${command} map https://example.com --search pricing
  ${command} search "tabhive firecrawl" --limit 5 --scrape
  ${command} batch urls.txt -o pages.jsonl
  ${command} keys create --team acme`;

/**
 * Every command of `tabhive`, on the program with the options they share. `command` is how the
 * user runs it (invoked-as.ts), as the help's examples and hints write it.
 */
export function createProgram(version: string, command = 'tabhive'): Command {
  const program = new Command('tabhive')
    .description(
      'Tabhive from the command line: scrape, crawl, map, search and batch against a Tabhive server.',
    )
    .version(version, '-V, --version')
    .addOption(
      new Option('--api-url <url>', `the Tabhive server (default: TABHIVE_API_URL or ${DEFAULT_API_URL})`),
    )
    .addOption(new Option('--api-key <key>', 'the API key (default: TABHIVE_API_KEY or the local key file)'))
    .option('--json', 'machine-readable output on stdout')
    .option('-q, --quiet', 'no progress display')
    .addHelpText('after', helpAfter(command));

  program.addCommand(createScrapeCommand());
  program.addCommand(createCrawlCommand());
  program.addCommand(createMapCommand());
  program.addCommand(createSearchCommand());
  program.addCommand(createBatchCommand());
  program.addCommand(
    createKeysCommand('keys').description(
      'teams, API keys and browser node tokens, on the store of a server on this machine (as npm run keys)',
    ),
  );

  // Commander's own errors (unknown option, missing argument) throw instead of exiting, everywhere,
  // so that main.ts decides the exit code (2). Added commands do not inherit these settings.
  const everyCommand = (one: Command): Command[] => [one, ...one.commands.flatMap(everyCommand)];
  const typed = (one: Command): string =>
    one.parent === null ? command : `${typed(one.parent)} ${one.name()}`;
  for (const one of everyCommand(program))
    one
      .configureHelp({ showGlobalOptions: true })
      .exitOverride()
      .showHelpAfterError(`(${typed(one)} --help for usage)`);
  return program;
}
