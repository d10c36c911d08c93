/**
 * Parsing at the edge: request bodies checked for size and shape before a schema reads them, and
 * schema failures as Firecrawl's 400.
 */
export { checkJsonTextDepth, inspectJson } from './inspect-json';
export { parseBody } from './parse-body';
