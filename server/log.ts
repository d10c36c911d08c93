/** A minimal structured logger: one line per event, `level message {json fields}` on stderr. */
export interface Log {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

type Level = 'info' | 'warn' | 'error';

export function createLog({ quiet = false }: { quiet?: boolean } = {}): Log {
  const write = (level: Level, message: string, fields?: Record<string, unknown>) => {
    if (quiet && level === 'info') return;
    const suffix = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    console.error(`${new Date().toISOString()} ${level} ${message}${suffix}`);
  };
  return {
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
  };
}

/** A logger that drops everything, for tests that assert on behaviour, not on log lines. */
export const silentLog: Log = { info() {}, warn() {}, error() {} };
