import pino from 'pino';
import { logContext } from './log-context';
import { LOG_LEVELS, type LogFormat, type LogLevel } from './log-settings';
import { prettyLine } from './pretty-line';

/** Structured logging: one line per event, a message and its fields. */
export interface Log {
  /**
   * Optional so that the small logs tests write (three levels) stay logs; callers write
   * `log.debug?.(…)`. Shown only with LOG_LEVEL=debug.
   */
  debug?(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Where lines go: standard error unless a test gives a stream of its own. */
export interface LogDestination {
  write(line: string): unknown;
}

export interface LogOptions {
  /** Drops info and debug lines (warn and error stay): tests that start a whole Tabhive. */
  quiet?: boolean;
  /** LOG_LEVEL: the least severe level written. */
  level?: LogLevel;
  /** LOG_FORMAT: `pretty`, one human-readable line per event, or `json`, one JSON object per line. */
  format?: LogFormat;
  destination?: LogDestination;
}

/**
 * The server's logger: pretty lines (pretty-line.ts), or one JSON object per line on pino when
 * `format` is json; every line carries the ids of the request, job or task it belongs to
 * (log-context.ts). Writes are synchronous: a few lines per request cost less than losing the last
 * ones when the process exits, and nothing runs in a worker thread.
 */
export function createLog({
  quiet = false,
  level = 'info',
  format = 'pretty',
  destination,
}: LogOptions = {}): Log {
  const target = destination ?? pino.destination({ dest: 2, sync: true });
  const threshold = quiet && (level === 'debug' || level === 'info') ? 'warn' : level;
  if (format === 'pretty') {
    const colorize = destination === undefined && process.stderr.isTTY === true;
    const shown = (at: LogLevel) => LOG_LEVELS.indexOf(at) >= LOG_LEVELS.indexOf(threshold);
    const write = (at: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
      if (shown(at)) target.write(prettyLine(at, message, { ...logContext(), ...fields }, { colorize }));
    };
    return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
  }
  const logger = pino(
    {
      level: threshold,
      base: undefined,
      mixin: () => ({ ...logContext() }),
      formatters: { level: (label: string) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    target,
  );
  const write = (at: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (fields === undefined) logger[at](message);
    else logger[at](fields, message);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** A logger that drops everything, for tests that assert on behaviour, not on log lines. */
export const silentLog: Log = { debug() {}, info() {}, warn() {}, error() {} };

/** A page's URL as log lines show it: no credentials, query or fragment, where tokens travel. */
export function urlForLog(url: string): string {
  const parsed = URL.parse(url);
  return parsed === null ? '(not a URL)' : `${parsed.origin}${parsed.pathname}`;
}
