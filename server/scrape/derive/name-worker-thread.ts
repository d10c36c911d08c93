import { writeFileSync } from 'node:fs';

/**
 * Gives the calling worker thread a name the operating system shows (`top -H`, `ps -L`, the
 * bench's CPU ledger), so that its CPU can be told from the main thread's and the garbage
 * collector's: Node leaves every thread called `node`. Linux only (a thread may rename itself
 * through /proc/thread-self/comm, 15 characters at most); elsewhere, or when /proc is not
 * mounted, the thread keeps its name.
 */
export function nameWorkerThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // Not Linux, or /proc is read-only here: the name is a convenience, not a need.
  }
}
