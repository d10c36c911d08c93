import type { PageCapture } from '../../../shared/protocol/messages';
import type { DerivationPool } from './create-derivation-pool';
import type { PageDerivation, PageDeriveOptions } from './derive-page';

/**
 * Where a capture's formats are made: a PDF (scraped or uploaded) in the document pool, every
 * other page in the page pool. A document can cost orders of magnitude more than a page, and an
 * attacker chooses it: kept apart, no document can ever hold the workers that pages need.
 */
export function deriveByKind(pools: {
  pages: Pick<DerivationPool, 'derive'>;
  documents: Pick<DerivationPool, 'derive'>;
}): (capture: PageCapture, options: PageDeriveOptions) => Promise<PageDerivation> {
  return (capture, options) =>
    (capture.pdfBase64 === undefined ? pools.pages : pools.documents).derive(capture, options);
}
