import { storage } from 'wxt/utils/storage';
import { z } from 'zod';

/**
 * Tasks in flight, the windows they opened and the network rules they added, kept in session
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

// Writes are chained so that concurrent tasks do not overwrite each other's entries.
let pending: Promise<unknown> = Promise.resolve();
function update(change: (journal: Journal) => void): Promise<void> {
  const next = pending.then(async () => {
    const journal = await read();
    change(journal);
    await journalItem.setValue(journal);
  });
  pending = next.catch(() => undefined);
  return next;
}

export const taskJournal = {
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
