import { TabhiveError } from '../../platform/errors';

/**
 * A document that goes past one of the limits its derivation runs under (pages, text, inflated
 * bytes), thrown in a worker thread: it crosses the thread by its name (create-derivation-pool.ts)
 * and is answered as {@link derivationErrors.limit}.
 */
export class DerivationLimit extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DerivationLimit';
  }
}

/**
 * The errors of derivation, declared once with stable codes. A derivation stopped at its scrape's
 * timeout is Firecrawl's 408 SCRAPE_TIMEOUT; one that needs more than any page may have (time,
 * memory, a document limit) is a 422 DERIVATION_LIMIT_EXCEEDED that says which.
 */
export const derivationErrors = {
  limit: (message: string) =>
    new TabhiveError('unprocessable', message, { code: 'DERIVATION_LIMIT_EXCEEDED' }),
  tooLong: (ceilingMs: number) =>
    derivationErrors.limit(
      `Making the formats of this document took more than ${Math.round(ceilingMs / 1000)} s, the most one page may take; it was stopped`,
    ),
  tooBig: (heapMb: number) =>
    derivationErrors.limit(
      `Making the formats of this document needed more than ${heapMb} MB of memory, the most one page may use; it was stopped`,
    ),
};
