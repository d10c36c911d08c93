import { PageTaskError } from './page-task-error';

/** Rejects with a timeout when `promise` has not settled by `deadline`. */
export function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PageTaskError('SCRAPE_TIMEOUT', 'Scrape timed out')),
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
