/**
 * The server's settings: the environment read once at start, parsed and checked
 * (docs/configuration.md).
 */
export { Config, ConfigError, loadConfig } from './config';
