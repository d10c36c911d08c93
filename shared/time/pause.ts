/**
 * Waits `ms`, or less when `signal` aborts: never rejects, so a loop that pauses between tries
 * checks the signal itself and ends its own way. Used by the server and the extension alike.
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
