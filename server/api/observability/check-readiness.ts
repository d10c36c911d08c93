import type { ReadyResponse } from '../../../shared/api/responses/ready-response';

/** Why some work of this instance cannot go on as it should (the derivation pools' problems). */
export interface WorkProblem {
  reason: string;
  /** Only a restart clears it: /health then fails too. */
  wedged: boolean;
}

/** What readiness asks about; the lead's cluster wiring may answer for the whole cluster. */
export interface ReadinessDeps {
  /** Resolves when the store answers; rejects otherwise. */
  pingStore(): Promise<void>;
  /** Browsers that can take this instance's browser work now. */
  browsersAvailable(): number | Promise<number>;
  /** Whether this instance's work needs browsers: then it is not ready without one. */
  servesBrowserWork: boolean;
  /** How long a ping may take before the store counts as unreachable. */
  storeTimeoutMs?: number;
  /** Work stuck or behind in this instance (no derivation worker free for long, one that does not stop). */
  workProblems?: () => WorkProblem[];
}

/** A readiness probe runs every few seconds: a store slower than this is as good as gone. */
export const READY_STORE_TIMEOUT_MS = 2_000;

/**
 * Ready when the store answers, if this instance serves browser work a browser is there, and no
 * work is stuck (a scrape could not finish here now).
 */
export async function checkReadiness(deps: ReadinessDeps): Promise<ReadyResponse & { storeError?: string }> {
  const timeoutMs = deps.storeTimeoutMs ?? READY_STORE_TIMEOUT_MS;
  const [storeError, browsers] = await Promise.all([
    pingWithin(deps.pingStore, timeoutMs),
    Promise.resolve(deps.browsersAvailable()).catch(() => 0),
  ]);
  const reasons = [
    ...(storeError === undefined ? [] : ['the store does not answer']),
    ...(deps.servesBrowserWork && browsers < 1 ? ['no browser is available for browser work'] : []),
    ...(deps.workProblems?.() ?? []).map((problem) => problem.reason),
  ];
  return {
    ready: reasons.length === 0,
    store: storeError === undefined ? 'ok' : 'unreachable',
    browsers,
    ...(reasons.length === 0 ? {} : { reasons }),
    ...(storeError === undefined ? {} : { storeError }),
  };
}

/** Undefined when the store answered in time, else why not. */
async function pingWithin(ping: () => Promise<void>, timeoutMs: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      ping().then(() => undefined),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
      }),
    ]);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    clearTimeout(timer);
  }
}
