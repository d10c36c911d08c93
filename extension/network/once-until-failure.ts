/**
 * `run` made once per worker: every caller shares its first promise, and a failure is forgotten so
 * that the next caller tries again (a browser-wide rule or script that failed to install must not
 * stay missing for the worker's life).
 */
export function onceUntilFailure<T>(run: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= run().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}
