import { AsyncLocalStorage } from 'node:async_hooks';

/** Ids that tie log lines together: the request, and the job and task its work belongs to. */
export interface LogContext {
  requestId?: string;
  jobId?: string;
  taskId?: string;
}

const current = new AsyncLocalStorage<LogContext>();

/**
 * Runs `work` with these ids on every line it logs, and on every line of the promises it starts:
 * a scrape's task failure then carries the id of the request that asked for it. Ids already in
 * force are kept unless given again.
 */
export function withLogContext<T>(context: LogContext, work: () => T): T {
  return current.run({ ...current.getStore(), ...context }, work);
}

/** The ids of the work running now, if any. */
export function logContext(): LogContext | undefined {
  return current.getStore();
}
