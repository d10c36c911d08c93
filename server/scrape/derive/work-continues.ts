import { TabhiveError } from '../../platform/errors';

/** How long a caller is told to wait before it asks again for work that goes on. */
export const CONTINUE_RETRY_AFTER_SECONDS = 10;

/**
 * How long a document's work may go on past its request's timeout (from the scrape's start), as
 * Firecrawl's engines stop at 5 minutes; the document pool still stops one derivation at its own
 * ceiling (docs/extract-parse-llmstxt.md).
 */
export const CONTINUED_WORK_CEILING_MS = 300_000;

/**
 * A scrape or parse whose caller's timeout passed while its document was still being read (a long
 * PDF, OCR): the caller is answered 408 SCRAPE_TIMEOUT with `details.state:
 * "processing_continues"` and `retryAfterSeconds` (Firecrawl's shape, which the clients'
 * auto-resume waits on), and the work goes on: `running` is its outcome, which the same request
 * sent again is given (api/http/continued-work.ts) instead of starting it again.
 */
export class WorkContinues<T = unknown> extends TabhiveError {
  readonly running: Promise<T>;

  constructor(running: Promise<T>, what = 'document') {
    super(
      'timed-out',
      `Request timed out, but this ${what} is still being processed: send the same request again to get its result`,
      {
        code: 'SCRAPE_TIMEOUT',
        details: {
          state: 'processing_continues',
          jobStatus: 'running',
          retryAfterSeconds: CONTINUE_RETRY_AFTER_SECONDS,
        },
        retryAfterSeconds: CONTINUE_RETRY_AFTER_SECONDS,
      },
    );
    this.running = running;
    // The caller may never come back for it: an outcome nobody waits for is not an unhandled rejection.
    running.catch(() => undefined);
  }
}
