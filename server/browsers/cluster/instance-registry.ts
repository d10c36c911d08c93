import type { BrowserClass } from '../../../shared/protocol/messages';
import type { Log } from '../../platform/log';
import type { InstanceRecord, InstanceStore } from '../../platform/store';

/** How often an instance reports itself and reads the others. */
export const INSTANCE_REPORT_MS = 2_000;
/** An instance not heard from for this long is gone (its record stops counting). */
export const INSTANCE_TTL_MS = 10_000;

export interface InstanceRegistry {
  /** This instance's id, new at every start. */
  readonly id: string;
  start(): void;
  /** Stops reporting and removes this instance's record. */
  stop(): Promise<void>;
  /** Tabs of the shared pool's browsers of a class on the other live instances, as they last reported. */
  poolTabsElsewhere(browserClass: BrowserClass): number;
  /** Browsers attached to the other live instances. */
  browsersElsewhere(): number;
  /** The live instances, this one included, as last read; undefined while the last read failed. */
  instances(): readonly InstanceRecord[] | undefined;
}

/**
 * The API instances sharing one database, each renewing a record of the browsers attached to it,
 * so that an instance without a browser of some class knows whether another one has one (and
 * relays the task there) or none has (and waits for one to connect).
 */
export function createInstanceRegistry({
  id,
  instances,
  log,
  attached,
  reportMs = INSTANCE_REPORT_MS,
  ttlMs = INSTANCE_TTL_MS,
}: {
  /** This instance's id (also on the credit reservations it holds). */
  id: string;
  instances: InstanceStore;
  log: Log;
  /** What is attached here now. */
  attached(): { poolTabs: Record<BrowserClass, number>; browsers: number };
  reportMs?: number;
  ttlMs?: number;
}): InstanceRegistry {
  const startedAt = new Date();
  let live: InstanceRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  let failing = false;
  let stopped = false;

  const report = async () => {
    const now = new Date();
    await instances.report({
      _id: id,
      ...attached(),
      startedAt,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + ttlMs),
    });
    live = await instances.live(now);
  };

  const loop = () => {
    report()
      .then(() => {
        if (failing) log.info('instance registry available again');
        failing = false;
      })
      .catch((err: unknown) => {
        if (!failing) log.warn('could not report this instance to the registry', { error: String(err) });
        failing = true;
      })
      .finally(() => {
        if (!stopped) {
          timer = setTimeout(loop, reportMs);
          timer.unref();
        }
      });
  };

  const others = () => live.filter((record) => record._id !== id);

  return {
    id,
    start: loop,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await instances.remove(id).catch(() => undefined);
    },
    poolTabsElsewhere: (browserClass) =>
      others().reduce((sum, record) => sum + (record.poolTabs[browserClass] ?? 0), 0),
    browsersElsewhere: () => others().reduce((sum, record) => sum + record.browsers, 0),
    instances: () => (failing ? undefined : live),
  };
}
