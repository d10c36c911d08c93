/** The walls of one sandboxed execute (docs/browser-sessions.md#execute). */
export interface SandboxLimits {
  /** The isolate's heap, in MiB (isolated-vm's memoryLimit: the isolate is stopped beyond it). */
  memoryMb: number;
  /** CPU time the code itself may use, in ms (time waiting on the page does not count). */
  cpuMs: number;
  /** Playwright objects one run may hold (every locator, handle, response… it was given). */
  maxHandles: number;
  /** Calls on Playwright objects one run may make. */
  maxCalls: number;
  /** Calls that may wait for the page at once. */
  maxCallsInFlight: number;
  /** Characters of text (and bytes of binary data) one call may bring back into the sandbox. */
  maxResultSize: number;
  /** Characters of console output kept (the response cuts it further). */
  maxConsoleChars: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  memoryMb: 64,
  cpuMs: 10_000,
  maxHandles: 10_000,
  maxCalls: 20_000,
  maxCallsInFlight: 64,
  maxResultSize: 4 * 1024 * 1024,
  maxConsoleChars: 200_000,
};
