/**
 * An error the API answers with. Thrown anywhere below a route; rendered in exactly one place
 * (error-handler.ts) into Firecrawl's envelope `{ success: false, code?, error, details? }`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly details: unknown;
  /** Extra response headers, e.g. `Retry-After`. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    message: string,
    options: { code?: string; details?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = options.code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}
