import { z } from 'zod';

export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const unsetIfEmpty = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/**
 * LOG_FORMAT: `pretty` (one human-readable line per event; the default, also when not on a
 * terminal, so that `npm start`, a service's journal and `docker logs` read alike) or `json` (one
 * JSON object per line, for a log collector).
 */
export const LogFormatSetting = z.preprocess(
  unsetIfEmpty,
  z.string().trim().toLowerCase().pipe(z.enum(LOG_FORMATS)).default('pretty'),
);
/** LOG_LEVEL: the least severe level written. */
export const LogLevelSetting = z.preprocess(
  unsetIfEmpty,
  z.string().trim().toLowerCase().pipe(z.enum(LOG_LEVELS)).default('info'),
);

/** LOG_FORMAT and LOG_LEVEL of an environment, for processes without the server's Config (the browser node). */
export function logSettings(env: Record<string, string | undefined>): { format: LogFormat; level: LogLevel } {
  const parsed = z.object({ LOG_FORMAT: LogFormatSetting, LOG_LEVEL: LogLevelSetting }).safeParse(env);
  if (!parsed.success) {
    throw new Error(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n'),
    );
  }
  return { format: parsed.data.LOG_FORMAT, level: parsed.data.LOG_LEVEL };
}
