/**
 * What went wrong, in the domain's words. The API decides how each kind is answered
 * (server/api/http/error-status.ts); nothing below the API speaks of HTTP statuses.
 */
export type ErrorKind =
  /** The request or its input is malformed or not valid: the caller must change it. */
  | 'invalid-input'
  /** No credentials, or credentials that name no one. */
  | 'unauthenticated'
  /** The team has spent its credit allowance. */
  | 'insufficient-credits'
  /** Known caller, refused: a blocked URL, a browser that may not take the task. */
  | 'forbidden'
  | 'not-found'
  /** The address exists, but not for this method. */
  | 'method-not-allowed'
  | 'timed-out'
  /** The request clashes with the current state: already used, already running, already ended. */
  | 'conflict'
  /** The thing existed and is over for good: an expired code, an ended session. */
  | 'gone'
  /** The request's body or upload is larger than allowed. */
  | 'too-large'
  /** The request's body or upload is of a type that is not taken. */
  | 'unsupported-media'
  /** Well-formed input that cannot be processed: a broken document, a limit its work went past. */
  | 'unprocessable'
  /** The team is at a rate or concurrency limit: retry later. */
  | 'rate-limited'
  /** The work failed: the site, the browser, the model, or an internal step. */
  | 'failed'
  /** A service the work relies on (the language model) gave no usable answer. */
  | 'upstream-failed'
  /** Nothing can take the work right now (no browser, no database): retry later. */
  | 'unavailable';

export interface TabhiveErrorOptions {
  /** The wire code (Firecrawl's where one exists); stable once shipped. */
  code?: string;
  /** Structured detail for the caller, such as validation issues. */
  details?: unknown;
  /** How long the caller should wait before trying again. */
  retryAfterSeconds?: number;
  /** For `method-not-allowed`: the methods the address does take, comma-separated ('' when unknown). */
  allowedMethods?: string;
}

/**
 * An error the caller is told about, thrown anywhere in the domain and answered in one place
 * (server/api/http/error-handler.ts). Its message is the wire message, so it is worded for callers.
 */
export class TabhiveError extends Error {
  readonly kind: ErrorKind;
  readonly code: string | undefined;
  readonly details: unknown;
  readonly retryAfterSeconds: number | undefined;
  readonly allowedMethods: string | undefined;

  constructor(kind: ErrorKind, message: string, options: TabhiveErrorOptions = {}) {
    super(message);
    this.name = 'TabhiveError';
    this.kind = kind;
    this.code = options.code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.allowedMethods = options.allowedMethods;
  }

  /** The same error under another wire code (v1 codes errors that v2 leaves without one). */
  withCode(code: string): TabhiveError {
    const { details, retryAfterSeconds, allowedMethods } = this;
    return new TabhiveError(this.kind, this.message, { code, details, retryAfterSeconds, allowedMethods });
  }
}
