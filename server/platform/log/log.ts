import pino from 'pino';
import { prettyFactory } from 'pino-pretty';
import { logContext } from './log-context';
import type { LogFormat, LogLevel } from './log-settings';

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

/** Line keys that are not the event's own fields. */
const LINE_KEYS = new Set(['level', 'time', 'msg']);

/**
 * `[time] LEVEL: message {"field":…}` on one line, fields as compact JSON in the order given (a
 * multi-line stack stays one line). pino-pretty is used as a function of each line, not as its
 * stream or transport: nothing runs in a worker thread and nothing is buffered, so every line
 * written before `process.exit` is out.
 */
function prettyLines(destination: LogDestination, colorize: boolean): LogDestination {
  const prettify = prettyFactory({
    colorize,
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
    // The fields are printed by messageFormat as JSON; pino-pretty would print `pid` as process
    // metadata and `error` as a multi-line error object.
    hideObject: true,
    ignore: 'pid,hostname,name',
    messageFormat: (line, messageKey) => {
      const fields = Object.fromEntries(Object.entries(line).filter(([key]) => !LINE_KEYS.has(key)));
      const message = String(line[messageKey] ?? '');
      return Object.keys(fields).length === 0 ? message : `${message} ${JSON.stringify(fields)}`;
    },
  });
  return { write: (line: string) => destination.write(prettify(line)) };
}

/**
 * The server's logger, on pino. Pretty lines unless `format` is json; every line carries the ids of
 * the request, job or task it belongs to (log-context.ts). Writes are synchronous: a few lines per
 * request cost less than losing the last ones when the process exits.
 */
export function createLog({
  quiet = false,
  level = 'info',
  format = 'pretty',
  destination,
}: LogOptions = {}): Log {
  const target = destination ?? pino.destination({ dest: 2, sync: true });
  const threshold = quiet && (level === 'debug' || level === 'info') ? 'warn' : level;
  const logger = pino(
    {
      level: threshold,
      base: undefined,
      mixin: () => ({ ...logContext() }),
      ...(format === 'json'
        ? {
            formatters: { level: (label: string) => ({ level: label }) },
            timestamp: pino.stdTimeFunctions.isoTime,
          }
        : {}),
    },
    format === 'json'
      ? target
      : prettyLines(target, destination === undefined && process.stderr.isTTY === true),
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
