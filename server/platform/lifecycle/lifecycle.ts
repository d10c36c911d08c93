import type { Log } from '../log';

/** What a component does when the server has started serving, and when it stops. */
export interface LifecycleHooks {
  /** Runs once the API serves: background loops (job runner, cluster, senders) start here. */
  start?: () => void;
  /** Gives back what the component holds: sockets, workers, timers, connections. */
  close?: () => void | Promise<void>;
}

/**
 * Set-up paired with tear-down: each component registers its start and close where it is made, so
 * the order of a stop is the reverse of the order of making (what is made later uses what was made
 * earlier, and stops first) rather than a list kept by hand.
 */
export interface Lifecycle {
  /** Registers a component's hooks under a name the log uses when one fails. */
  use(name: string, hooks: LifecycleHooks): void;
  /** Starts the registered components, in the order they were registered. */
  start(): void;
  /**
   * Closes the registered components, the last registered first. One that fails is logged and
   * the others still close: a stop that gave up halfway would leave browsers and workers behind.
   */
  close(): Promise<void>;
}

export function createLifecycle(log: Log): Lifecycle {
  const components: Array<{ name: string; hooks: LifecycleHooks }> = [];
  let closing: Promise<void> | undefined;
  return {
    use(name, hooks) {
      components.push({ name, hooks });
    },
    start() {
      for (const { hooks } of components) hooks.start?.();
    },
    close() {
      // Once: a second stop (a second signal, a test's cleanup) waits for the first.
      closing ??= (async () => {
        for (const { name, hooks } of [...components].reverse()) {
          try {
            await hooks.close?.();
          } catch (err) {
            log.warn('a component did not close cleanly', { component: name, error: String(err) });
          }
        }
      })();
      return closing;
    },
  };
}
