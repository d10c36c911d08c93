/**
 * Pages a job runner may have in flight beyond its browser slots: pages the HTTP fast path serves
 * wait on the network and the derivation workers, not on a tab. Team concurrency still bounds them.
 */
export const HTTP_PAGES_IN_FLIGHT = 8;

export interface BrowserSlots {
  /** Runs `work` once a slot is free, in arrival order, and frees the slot when it settles. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Pages in a browser now. */
  inUse(): number;
}

/**
 * The browser tabs a job runner's pages may hold at once. A page takes a slot only when it really
 * goes to a browser, so pages served over HTTP never wait behind browser work. `limit()` is read
 * whenever a slot frees or is asked for, as browsers come and go; it is at least 1, so a page
 * reaches the hub, which knows how long to wait for a browser to connect.
 */
export function createBrowserSlots(limit: () => number): BrowserSlots {
  let busy = 0;
  const waiting: Array<() => void> = [];

  const admit = () => {
    while (waiting.length > 0 && busy < Math.max(1, limit())) {
      busy += 1;
      (waiting.shift() as () => void)();
    }
  };

  return {
    async run(work) {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        admit();
      });
      try {
        return await work();
      } finally {
        busy -= 1;
        admit();
      }
    },
    inUse: () => busy,
  };
}
