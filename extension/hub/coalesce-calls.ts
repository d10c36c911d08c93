/**
 * Runs `fn` at most once per `ms`, `ms` after the first call of a burst: calls made meanwhile are
 * served by that one run. For reports that describe the state at the time they run, where only
 * the latest matters.
 */
export function coalesceCalls(fn: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      fn();
    }, ms);
  };
}
