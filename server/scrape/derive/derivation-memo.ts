import { createHash } from 'node:crypto';
import type { PageCapture } from '../../../shared/protocol/messages';
import { approximateBytes, createBoundedLru } from '../../platform/store';
import type { PageDerivation, PageDeriveOptions } from './derive-page';

/**
 * Derivations kept at most, and the memory they may take: Markdown and the other formats are a
 * fraction of the capture they come from; the scraper keeps one for all its pages.
 */
export const DERIVATION_MEMO_MAX_ENTRIES = 1_000;
export const DERIVATION_MEMO_MAX_BYTES = 16 * 1024 * 1024;

type Derive = (capture: PageCapture, options: PageDeriveOptions) => Promise<PageDerivation>;

/**
 * The options as a string: sets become sorted arrays, so equal options make equal keys; every
 * option that changes the output is in it (PDF parser options, the page-reading formats' requests).
 * A digest of them, so that a request with a hundred attribute selectors keys no bigger than any other.
 */
export const deriveOptionsKey = (options: PageDeriveOptions) =>
  createHash('sha256')
    .update(
      JSON.stringify(options, (_key, value: unknown) => (value instanceof Set ? [...value].sort() : value)),
    )
    .digest('base64url');

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/**
 * The formats made from cache entries, by entry id and derive options. An entry id names one
 * capture for good (entries are never changed, only added and removed), and deriving is a pure
 * function of the capture and the options, so a hot page's Markdown is made once instead of once
 * per request. Derivations asked for at once share one run. What is kept is frozen: every request
 * that reuses it shares it.
 */
export function createDerivationMemo({
  maxEntries = DERIVATION_MEMO_MAX_ENTRIES,
  maxBytes = DERIVATION_MEMO_MAX_BYTES,
}: { maxEntries?: number; maxBytes?: number } = {}) {
  const held = createBoundedLru<string, PageDerivation>({ maxEntries, maxBytes });
  const running = new Map<string, Promise<PageDerivation>>();
  const slot = (entryId: string, optionsKey: string) => `${entryId}\n${optionsKey}`;

  const keep = (key: string, derived: PageDerivation) => {
    held.set(key, deepFreeze(derived), approximateBytes(derived));
    return derived;
  };

  return {
    /**
     * The derivation of the entry's capture, made with `derive` unless it is known already.
     * `optionsKey` is deriveOptionsKey(options), which the caller has at hand.
     */
    derive(
      entryId: string,
      capture: PageCapture,
      options: PageDeriveOptions,
      optionsKey: string,
      derive: Derive,
    ): Promise<PageDerivation> {
      const key = slot(entryId, optionsKey);
      const known = held.get(key);
      if (known !== undefined) return Promise.resolve(known);
      const pending = running.get(key);
      if (pending !== undefined) return pending;
      const made = derive(capture, options)
        .then((derived) => keep(key, derived))
        .finally(() => running.delete(key));
      running.set(key, made);
      return made;
    },

    /** Keeps a derivation made elsewhere (the HTTP fast path derives the pages it fetches). */
    remember(entryId: string, optionsKey: string, derived: PageDerivation): PageDerivation {
      return keep(slot(entryId, optionsKey), derived);
    },

    get size() {
      return held.size;
    },
  };
}

export type DerivationMemo = ReturnType<typeof createDerivationMemo>;
