/**
 * The HTTP edge: the Koa server, body reading and limits, authentication, CORS, request logs, and the
 * mapping of domain errors to Firecrawl's error shape and statuses.
 */
export { authenticate, bearerToken, teamOf } from './authenticate';
export { cors } from './cors';
export { createContinuedWork } from './continued-work';
export type { ContinuedWork } from './continued-work';
export { errorHandler } from './error-handler';
export { httpStatusOf } from './error-status';
export { limitRate } from './limit-rate';
export { notFound } from './not-found';
export { createPublicUrl } from './public-url';
export type { PublicUrl } from './public-url';
export { readJsonBody } from './read-json-body';
export { requestLog } from './request-log';
