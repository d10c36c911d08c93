/** A task a browser answered with ok:false, as the console shows it. */
export interface BrowserFailure {
  at: string;
  taskId: string;
  /** Without query, fragment or credentials (displayUrl). */
  url: string;
  /** The team the task ran for; absent for tasks of no team. Decides who may see the URL. */
  teamId?: string;
  code: string;
  message: string;
}

/** Failures kept per browser: enough to see a pattern, little enough to keep on every connection. */
export const RECENT_FAILURES = 5;
/** An error message is kept up to this long: a browser may send pages of stack trace. */
const MAX_MESSAGE_CHARS = 300;

/** The last `capacity` failures of one browser, newest first. */
export function createRecentFailures(capacity = RECENT_FAILURES) {
  const kept: BrowserFailure[] = [];
  return {
    record(failure: BrowserFailure) {
      kept.unshift({ ...failure, message: failure.message.slice(0, MAX_MESSAGE_CHARS) });
      if (kept.length > capacity) kept.length = capacity;
    },
    list: (): BrowserFailure[] => kept.map((failure) => ({ ...failure })),
  };
}

export type RecentFailures = ReturnType<typeof createRecentFailures>;
