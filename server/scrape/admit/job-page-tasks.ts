import type { PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import type { RunOptions } from '../../browsers/hub';
import type { BrowserSlots } from './browser-slots';

type RunTask = (spec: PageTaskSpec, options: RunOptions) => Promise<PageCapture>;

/**
 * The browser tasks of job pages: each waits for one of the job pages' browser slots and runs at
 * background priority. Job pages may fill every tab; a task someone waits for (a scrape, a search)
 * takes the next tab that frees, ahead of them (task-scheduler.ts priorities).
 */
export function jobPageTasks(runTask: RunTask, slots: BrowserSlots | undefined): RunTask {
  return (spec, options) => {
    const run = () => runTask(spec, { ...options, priority: 'background' });
    return slots === undefined ? run() : slots.run(run);
  };
}
