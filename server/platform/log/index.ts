/** The server log (pino) and the request context each line carries. */
export { withLogContext } from './log-context';
export { LogFormatSetting, LogLevelSetting, logSettings } from './log-settings';
export { createLog, silentLog, urlForLog } from './log';
export type { Log } from './log';
