/**
 * The Node HTTP server the API and the browser hub share, with the edge's timeouts; made before
 * anything else so the port is known while browsers launch.
 */
export { createApiServer } from './create-api-server';
