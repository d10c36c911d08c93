/**
 * The API wing: the HTTP app (routes, middleware, OpenAPI, MCP, console, observability) and the
 * command line, over the products and the scrape. Nothing imports it but the composition root.
 */
export { createApp } from './app';
export { createConsoleDeps } from './console';
