/** How often a tool that waits for a job looks at it again. */
export const JOB_POLL_INTERVAL_MS = 1_000;

/**
 * Reads a job until it has ended, `waitMs` has passed, or the MCP request is gone, and answers the
 * last reading. A tool that waits for a crawl or an extract answers within a bounded time this way:
 * a long job comes back still running, with its id for the status tool.
 */
export async function waitForJob<T>({
  read,
  ended,
  waitMs,
  signal,
}: {
  read: () => Promise<T>;
  ended: (reading: T) => boolean;
  waitMs: number;
  signal: AbortSignal;
}): Promise<T> {
  const deadline = Date.now() + waitMs;
  let reading = await read();
  while (!ended(reading) && !signal.aborted && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, JOB_POLL_INTERVAL_MS));
    reading = await read();
  }
  return reading;
}
