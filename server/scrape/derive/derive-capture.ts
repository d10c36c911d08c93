import { InvalidSelectorError } from '../../../shared/html/clean-html';
import type { PageCapture } from '../../../shared/protocol/messages';
import { errors } from '../../platform/errors';
import { type DerivationMemo, deriveOptionsKey } from './derivation-memo';
import type { PageDerivation, PageDeriveOptions } from './derive-page';

type Derive = (capture: PageCapture, options: PageDeriveOptions) => Promise<PageDerivation>;

/** What the derive stage reads of the scrape plan (scrape-plan.ts). */
export interface DerivePlan {
  readonly deriveOptions: PageDeriveOptions;
  /** Makes the formats of a page in hand elsewhere (an upload's, in the document pool). */
  readonly deriveWith: Derive | undefined;
}

/** What the derive stage reads of the capture stage's outcome. */
export interface CaptureToDerive {
  readonly capture: PageCapture;
  /** The cache entry holding the capture: what is derived from it is kept while it is hot. */
  readonly entryId?: string | undefined;
  /** What the HTTP fast path derived with this capture. */
  readonly fastDerived: PageDerivation | undefined;
}

export interface DerivedPage {
  readonly derived: PageDerivation;
  /** deriveOptionsKey of the options, for a capture from a cache entry. */
  readonly optionsKey: string | undefined;
}

function rethrowSelectorError(err: unknown): never {
  if (err instanceof InvalidSelectorError) throw errors.invalidSelector(err.selector);
  throw err;
}

/**
 * The derive stage: the fast path derived the formats of the capture it took; a cached or browser
 * capture is derived now, once per cache entry and options while the entry is hot (derivation-memo.ts).
 */
export async function deriveCapture(
  { deriveOptions, deriveWith }: DerivePlan,
  { capture, entryId, fastDerived }: CaptureToDerive,
  { derive, derivations }: { derive: Derive; derivations: DerivationMemo },
): Promise<DerivedPage> {
  if (entryId === undefined) {
    const derived =
      fastDerived ?? (await (deriveWith ?? derive)(capture, deriveOptions).catch(rethrowSelectorError));
    return { derived, optionsKey: undefined };
  }
  const optionsKey = deriveOptionsKey(deriveOptions);
  const derived =
    fastDerived !== undefined
      ? derivations.remember(entryId, optionsKey, fastDerived)
      : await derivations
          .derive(entryId, capture, deriveOptions, optionsKey, derive)
          .catch(rethrowSelectorError);
  return { derived, optionsKey };
}
