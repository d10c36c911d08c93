/**
 * Domain errors: what went wrong in the domain's words and Firecrawl's codes; the API maps them to
 * HTTP.
 */
export { errors } from './errors';
export { TabhiveError } from './tabhive-error';
export type { ErrorKind } from './tabhive-error';
