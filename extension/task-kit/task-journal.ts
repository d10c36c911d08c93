import { storage } from 'wxt/utils/storage';
import { z } from 'zod';

/**
 * Tasks in flight and the network rules they added, and the windows of task tabs, kept in session
 * storage, which outlives the service worker (as do windows and DNR session rules): when Chrome
 * kills or restarts the worker mid-task, the next start closes the orphaned windows (which also
 * ends their debugger sessions), removes their rules, and reports the task ids as lost in its
 * next `hello`.
 */
const JournalEntry = z.object({
  windowId: z.number().int().optional(),
  ruleIds: z.array(z.number().int()).optional(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;
const Journal = z.record(z.string(), JournalEntry);
type Journal = z.infer<typeof Journal>;

const journalItem = storage.defineItem<unknown>('session:taskJournal', { fallback: {} });

async function read(): Promise<Journal> {
  const parsed = Journal.safeParse(await journalItem.getValue());
  return parsed.success ? parsed.data : {};
}

/**
 * The journal as this worker knows it: read from storage once, then changed in memory and written
 * through. Changes that arrive while a write is under way go out together in the next write, so
 * concurrent tasks cost one storage write per burst rather than a read and a write each.
 */
let memory: Promise<Journal> | undefined;
let flushing: Promise<void> | undefined;
let dirty: Promise<void> | undefined;

function flush(): Promise<void> {
  dirty ??= (async () => {
    // One write at a time; changes made meanwhile wait for the next.
    await flushing?.catch(() => undefined);
    dirty = undefined;
    const journal = await (memory ??= read());
    flushing = journalItem.setValue({ ...journal });
    await flushing;
  })();
  return dirty;
}

function update(change: (journal: Journal) => void): Promise<void> {
  return (memory ??= read()).then((journal) => {
    change(journal);
    return flush();
  });
}

const WINDOW_KEY_PREFIX = 'window:';

export const taskJournal = {
  /** The key of a pooled tab's window, which belongs to no task (task-tab-pool.ts). */
  windowKey: (windowId: number) => `${WINDOW_KEY_PREFIX}${windowId}`,
  /** Whether a key is a task's id rather than a pooled window's. */
  isTaskKey: (key: string) => !key.startsWith(WINDOW_KEY_PREFIX),
  record: (taskId: string, entry: JournalEntry = {}) =>
    update((journal) => {
      journal[taskId] = entry;
    }),
  remove: (taskId: string) =>
    update((journal) => {
      delete journal[taskId];
    }),
  /** Everything recorded, and empties the journal. */
  async drain(): Promise<Journal> {
    let drained: Journal = {};
    await update((journal) => {
      drained = { ...journal };
      for (const key of Object.keys(journal)) delete journal[key];
    });
    return drained;
  },
};
