import type { ErrorKind, TabhiveError } from '../../platform/errors';

/** The HTTP status that answers each kind of domain error. */
const STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  'invalid-input': 400,
  unauthenticated: 401,
  'insufficient-credits': 402,
  forbidden: 403,
  'not-found': 404,
  'method-not-allowed': 405,
  'timed-out': 408,
  conflict: 409,
  gone: 410,
  'too-large': 413,
  'unsupported-media': 415,
  unprocessable: 422,
  'rate-limited': 429,
  failed: 500,
  'upstream-failed': 502,
  unavailable: 503,
};

export function httpStatusOf(err: TabhiveError): number {
  return STATUS_OF_KIND[err.kind];
}

/** The response headers a domain error's hints become. */
export function httpHeadersOf(err: TabhiveError): Record<string, string> {
  return {
    ...(err.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(err.retryAfterSeconds) }),
    ...(err.allowedMethods === undefined || err.allowedMethods === '' ? {} : { Allow: err.allowedMethods }),
    // The rest of a body that is too large is not wanted: closing after the answer spares reading it.
    ...(err.kind === 'too-large' ? { Connection: 'close' } : {}),
  };
}
