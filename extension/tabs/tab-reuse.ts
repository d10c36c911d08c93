import type { PageTaskSpec } from '../../shared/protocol/messages';

/** Whether navigating from `current` to `next` would stay in the same document (or reload it). */
export function sameDocument(current: string, next: string): boolean {
  const withoutFragment = (url: string) => url.split('#', 1)[0];
  return current !== 'about:blank' && withoutFragment(current) === withoutFragment(next);
}

/**
 * Whether a task leaves its tab as a next task may find it: no emulation (device, user agent,
 * locale, clock, position), no actions (which may resize, scroll, type, or print). Its own network
 * rules are removed either way.
 */
export function leavesTabClean(spec: PageTaskSpec): boolean {
  return (
    spec.mobile !== true &&
    spec.location === undefined &&
    (spec.actions === undefined || spec.actions.length === 0)
  );
}
