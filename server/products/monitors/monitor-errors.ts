import { TabhiveError, errors } from '../../platform/errors';

/** The monitor routes' own errors, in Firecrawl's envelope; validation issues use errors.badRequest. */
export const monitorErrors = {
  /** Unknown id, malformed id and another team's monitor alike: its existence is not revealed. */
  monitorNotFound: () => new TabhiveError('not-found', 'Monitor not found', { code: 'MONITOR_NOT_FOUND' }),
  checkNotFound: () =>
    new TabhiveError('not-found', 'Monitor check not found', { code: 'MONITOR_CHECK_NOT_FOUND' }),
  invalidSchedule: (message: string) => errors.badRequest([{ code: 'custom', message, path: ['schedule'] }]),
  invalidTarget: (index: number, message: string, path: ReadonlyArray<string | number> = []) =>
    errors.badRequest([{ code: 'custom', message, path: ['targets', index, ...path] }]),
  checkRunning: () =>
    new TabhiveError('conflict', 'A check of this monitor is running; try again when it has finished.', {
      code: 'MONITOR_CHECK_RUNNING',
    }),
} as const;
