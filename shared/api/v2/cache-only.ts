import type { z } from 'zod';

/** The fields the cache-only rules read; every scrape-options object has them (or leaves them out). */
export interface CacheOnlyFields {
  lockdown?: boolean | undefined;
  minAge?: number | undefined;
  maxAge?: number | undefined;
  waitFor?: number | undefined;
  actions?: readonly unknown[] | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
  proxy?: string | undefined;
  formats?: ReadonlyArray<{ type: string } | string> | undefined;
  zeroDataRetention?: boolean | undefined;
  /** A browser profile's cookies shape the page: never a cached copy. */
  profile?: unknown;
}

/**
 * Whether a request may be answered from the scrape cache alone and must never reach the site:
 * `lockdown: true`, or a `minAge` (a copy at least that old can only come from the cache).
 */
export function servesFromCacheOnly(options: Pick<CacheOnlyFields, 'lockdown' | 'minAge'>): boolean {
  return options.lockdown === true || options.minAge !== undefined;
}

/**
 * The rules of cache-only requests, for the scrape-options refinement: the cache must be readable
 * for them (not `maxAge: 0`, none of what makes a request skip the cache: waitFor, actions, its own
 * headers, a browser profile, change tracking, the stealth class, zero data retention), and
 * `maxAge` and `minAge` must leave a window between them.
 */
export function refineCacheOnly(options: CacheOnlyFields, ctx: z.RefinementCtx): void {
  if (!servesFromCacheOnly(options)) return;
  const asked = options.lockdown === true ? 'lockdown' : 'minAge';
  const refuse = (path: string, what: string) =>
    ctx.addIssue({
      code: 'custom',
      path: [path],
      message: `${asked} serves only a cached copy of the page, which cannot honour ${what}`,
    });
  if (options.maxAge === 0) refuse('maxAge', 'maxAge 0 (never read the cache)');
  else if (options.minAge !== undefined && options.maxAge !== undefined && options.maxAge < options.minAge) {
    ctx.addIssue({
      code: 'custom',
      path: ['maxAge'],
      message:
        'maxAge must be at least minAge: no cached copy can be younger than maxAge and older than minAge',
    });
  }
  if ((options.waitFor ?? 0) > 0) refuse('waitFor', 'waitFor (a cached copy was taken without waiting)');
  if ((options.actions ?? []).length > 0) refuse('actions', 'actions');
  if (Object.keys(options.headers ?? {}).length > 0) refuse('headers', 'headers of your own');
  if (options.proxy === 'stealth') refuse('proxy', 'proxy "stealth" (a fresh capture by a stealth browser)');
  if (
    (options.formats ?? []).some(
      (format) => (typeof format === 'string' ? format : format.type) === 'changeTracking',
    )
  ) {
    refuse('formats', 'the changeTracking format');
  }
  if (options.profile !== undefined) refuse('profile', 'a browser profile (its cookies shape the page)');
  if (options.zeroDataRetention === true)
    refuse('zeroDataRetention', 'zeroDataRetention (which never reads the cache)');
}
