/** How often the browser count is looked at, so that a browser that was just there is remembered. */
const SAMPLE_MS = 1_000;
/** How often the count is looked at again while an absence is being confirmed. */
const CONFIRM_POLL_MS = 250;

export interface BrowserPresence {
  /**
   * Whether a browser task can only fail for want of a browser: none is attached to any instance
   * of the cluster, none was for the grace period (one that just went may come back), and this
   * server launches none (a launched browser connects about a second after the start, and a
   * crashed one is launched again). A task then fails at once instead of after the grace period.
   */
  noneToWaitFor(): boolean;
  /**
   * `noneToWaitFor()`, still true after `confirmMs` (at most `withinMs`): the other instances'
   * browsers are known only as their last report said, so a browser that has just joined one of
   * them shows here a report later. Answers at once where there is nothing to confirm.
   */
  confirmedNone(withinMs: number): Promise<boolean>;
  start(): void;
  stop(): void;
}

export function createBrowserPresence({
  browsersInCluster,
  countKnown = () => true,
  launchesBrowsers,
  graceMs,
  confirmMs = 0,
  now = Date.now,
}: {
  /** Browsers attached to every live instance, this one's included. */
  browsersInCluster(): number;
  /** Whether the count can be trusted: false until the other instances were read, and while they cannot be. */
  countKnown?: () => boolean;
  launchesBrowsers: boolean;
  graceMs: number;
  /** How long an absence is watched before it is believed: how late the other instances' reports may be. */
  confirmMs?: number;
  now?: () => number;
}): BrowserPresence {
  let lastSeenAt: number | undefined;
  let sampler: NodeJS.Timeout | undefined;
  const present = () => {
    const some = browsersInCluster() > 0;
    if (some) lastSeenAt = now();
    return some;
  };
  const noneToWaitFor = () => {
    if (launchesBrowsers || !countKnown() || present()) return false;
    return lastSeenAt === undefined || now() - lastSeenAt >= graceMs;
  };
  return {
    noneToWaitFor,
    async confirmedNone(withinMs) {
      if (!noneToWaitFor()) return false;
      const until = now() + Math.min(confirmMs, withinMs);
      while (now() < until) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(CONFIRM_POLL_MS, until - now())));
        if (!noneToWaitFor()) return false;
      }
      return true;
    },
    start() {
      present();
      sampler = setInterval(present, SAMPLE_MS);
      sampler.unref();
    },
    stop() {
      clearInterval(sampler);
    },
  };
}
