import { CommanderError } from 'commander';
import { UsageError } from '../usage-error';

/** The exit codes of `tabhive`, stable once shipped (README "Command line", `tabhive --help`). */
export const EXIT = {
  OK: 0,
  /** The API answered with an error, or the crawl or batch job failed or was cancelled. */
  FAILED: 1,
  /** The command line was wrong (unknown option, missing argument, unreadable input file). */
  USAGE: 2,
  /** The server could not be reached, or it refused the API key (401). */
  UNREACHABLE_OR_AUTH: 3,
  /** The crawl or batch job finished, but some of its pages failed (they are listed on stderr). */
  PAGES_FAILED: 4,
  /** Interrupted with Ctrl-C: the job goes on on the server and can be resumed. */
  INTERRUPTED: 130,
} as const;

export const EXIT_CODES_HELP = `Exit codes:
  0    success
  1    the API answered with an error, or the crawl/batch job failed or was cancelled
  2    usage error (unknown option, missing argument, unreadable input file)
  3    the server cannot be reached, or it refused the API key (HTTP 401)
  4    the crawl/batch job finished but some of its pages failed (listed on stderr, all in --json)
  130  interrupted (Ctrl-C): the job goes on on the server; follow it again with --resume <job id>`;

/** An error answer of the API, in its own words. */
export class ApiFailure extends Error {
  readonly code: string | undefined;
  readonly details: unknown;
  /** A line of advice printed after the message (e.g. where the refused key came from). */
  readonly hint: string | undefined;

  constructor(
    readonly status: number,
    message: string,
    extra: { code?: string | undefined; details?: unknown; hint?: string | undefined } = {},
  ) {
    super(message);
    this.name = 'ApiFailure';
    this.code = extra.code;
    this.details = extra.details;
    this.hint = extra.hint;
  }
}

/** No HTTP answer at all: connection refused, name not found, TLS failure, reset. */
export class ServerUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServerUnreachable';
  }
}

/** A crawl or batch job that ended `failed` or `cancelled`. */
export class JobFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobFailed';
  }
}

/** A crawl or batch job that finished with pages that failed: the run wrote what it could. */
export class PagesFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PagesFailed';
  }
}

/** The exit code for what a command threw. Commander has printed its own errors already. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof CommanderError)
    return err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version'
      ? EXIT.OK
      : EXIT.USAGE;
  if (err instanceof UsageError) return EXIT.USAGE;
  if (err instanceof PagesFailed) return EXIT.PAGES_FAILED;
  if (err instanceof ServerUnreachable) return EXIT.UNREACHABLE_OR_AUTH;
  if (err instanceof ApiFailure) return err.status === 401 ? EXIT.UNREACHABLE_OR_AUTH : EXIT.FAILED;
  return EXIT.FAILED;
}
