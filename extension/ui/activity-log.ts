import { storage } from 'wxt/utils/storage';
import { z } from 'zod';
import { ActivityEntry } from './ui-messages';

/** Enough for a day of a busy donor's tasks; older entries fall off. */
export const MAX_ACTIVITY_ENTRIES = 200;

const activityItem = storage.defineItem<unknown>('local:activity', { fallback: [] });

export async function readActivity(): Promise<ActivityEntry[]> {
  const parsed = z.array(ActivityEntry).safeParse(await activityItem.getValue());
  return parsed.success ? parsed.data : [];
}

// Writes are chained so that tasks ending together do not overwrite each other's entries.
let pending: Promise<unknown> = Promise.resolve();

/** Adds an entry at the front (newest first), keeping at most MAX_ACTIVITY_ENTRIES. */
export function recordActivity(entry: ActivityEntry): Promise<void> {
  const next = pending.then(async () => {
    const entries = await readActivity();
    await activityItem.setValue([entry, ...entries].slice(0, MAX_ACTIVITY_ENTRIES));
  });
  pending = next.catch(() => undefined);
  return next;
}

export async function clearActivity(): Promise<void> {
  await pending;
  await activityItem.setValue([]);
}
