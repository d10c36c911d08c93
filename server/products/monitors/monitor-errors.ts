import { ApiError } from '../../platform/errors/api-error';

/** The monitor routes' own errors, in Firecrawl's envelope; validation issues use errors.badRequest. */
export const monitorErrors = {
  /** Unknown id, malformed id and another team's monitor alike: its existence is not revealed. */
  monitorNotFound: () => new ApiError(404, 'Monitor not found', { code: 'MONITOR_NOT_FOUND' }),
  checkNotFound: () => new ApiError(404, 'Monitor check not found', { code: 'MONITOR_CHECK_NOT_FOUND' }),
  invalidSchedule: (message: string) =>
    new ApiError(400, 'Bad Request', {
      code: 'BAD_REQUEST',
      details: [{ code: 'custom', message, path: ['schedule'] }],
    }),
  invalidTarget: (index: number, message: string, path: ReadonlyArray<string | number> = []) =>
    new ApiError(400, 'Bad Request', {
      code: 'BAD_REQUEST',
      details: [{ code: 'custom', message, path: ['targets', index, ...path] }],
    }),
  checkRunning: () =>
    new ApiError(409, 'A check of this monitor is running; try again when it has finished.', {
      code: 'MONITOR_CHECK_RUNNING',
    }),
} as const;
