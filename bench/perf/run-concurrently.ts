/**
 * Calls `work` on every item, at most `concurrency` at a time, taking items in order; `worker`
 * (0 to concurrency − 1) lets a caller keep one page or connection per worker.
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, worker: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (index: number) => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, (_, i) => worker(i)));
}
