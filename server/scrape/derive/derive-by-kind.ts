import type { PageCapture } from '../../../shared/protocol/messages';
import type { DerivationPool } from './create-derivation-pool';
import type { PageDerivation, PageDeriveOptions } from './derive-page';
import { documentWorkStarts } from './scrape-deadline';

/**
 * Where a capture's formats are made: a PDF (scraped or uploaded) in the document pool, every
 * other page in the page pool. A document can cost orders of magnitude more than a page, and an
 * attacker chooses it: kept apart, no document can ever hold the workers that pages need. A
 * document's derivation may go on past its caller's timeout (work-continues.ts).
 */
export function deriveByKind(pools: {
  pages: Pick<DerivationPool, 'derive'>;
  documents: Pick<DerivationPool, 'derive'>;
}): (capture: PageCapture, options: PageDeriveOptions) => Promise<PageDerivation> {
  return (capture, options) => {
    if (capture.pdfBase64 === undefined) return pools.pages.derive(capture, options);
    // A document may outlive its request (scrape-deadline.ts): from here on, the scrape goes on.
    documentWorkStarts();
    return pools.documents.derive(capture, options);
  };
}
