/**
 * Keeps a launched browser's state (cookies, storage, caches, warm tabs) to one owner at a time.
 * Tasks name their owner with the server's `stateKey` (a team). A task whose key differs from the
 * browser's waits until the tasks of the current key have cleaned up, then the state is wiped and
 * the browser changes hands; tasks of the same key run side by side. The server sends keys so that
 * they do not mix (task-scheduler.ts); this is the browser's own guarantee, whatever arrives.
 * Tasks without a key (donated browsers) pass straight through and never cause a wipe.
 */
export function createBrowserStateKeeper({ wipe }: { wipe(): Promise<void> }) {
  /** The key whose state the browser holds; undefined after a worker start, so the first task wipes. */
  let owner: string | undefined;
  /** Tasks of `owner` between enter and leave. */
  let active = 0;
  let switching: Promise<void> | undefined;
  let drained: Array<() => void> = [];

  const leave = () => {
    active -= 1;
    if (active > 0) return;
    const waiting = drained;
    drained = [];
    for (const resolve of waiting) resolve();
  };

  return {
    /**
     * Resolves once the browser holds `key`'s state, with the function to call when the task has
     * cleaned up. Rejects when the wipe fails: the task must not run in someone else's state.
     */
    async enter(key: string | undefined): Promise<() => void> {
      if (key === undefined) return () => {};
      for (;;) {
        if (switching !== undefined) {
          await switching;
        } else if (owner === key) {
          active += 1;
          let left = false;
          return () => {
            if (!left) leave();
            left = true;
          };
        } else if (active > 0) {
          await new Promise<void>((resolve) => drained.push(resolve));
        } else {
          owner = undefined;
          switching = wipe()
            .then(() => {
              owner = key;
            })
            .finally(() => {
              switching = undefined;
            });
          await switching;
        }
      }
    },
    /** The key whose state the browser holds (for status and tests). */
    owner: () => owner,
  };
}

export type BrowserStateKeeper = ReturnType<typeof createBrowserStateKeeper>;
