import type { Log } from '../../server/platform/log/log';

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

/** A log that keeps every line, for tests of what was logged, and of what never was (secrets). */
export function recordingLog(): { log: Log; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const log: Log = {
    info: (message, fields = {}) => void lines.push({ level: 'info', message, fields }),
    warn: (message, fields = {}) => void lines.push({ level: 'warn', message, fields }),
    error: (message, fields = {}) => void lines.push({ level: 'error', message, fields }),
  };
  return { log, lines };
}
