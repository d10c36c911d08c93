/** The operator console at /console: its page, assets and the read-only data routes it calls. */
export { consoleRoutes } from './console-routes';
export type { ConsoleDeps } from './console-routes';
export type { ConsoleFigures } from './console-figures';
export { createConsoleDeps } from './create-console-deps';
