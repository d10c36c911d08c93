import { randomUUID } from 'node:crypto';
import type { BrowserClass, PageCapture, PageTaskSpec } from '../../shared/protocol/messages';
import { TaskError } from './task-error';

/** A browser as the scheduler sees it: how many tasks it takes at once, and how to hand it one. */
export interface Worker {
  readonly id: string;
  readonly capacity: number;
  /** Tasks go only to browsers of their class; basic when absent. */
  readonly browserClass?: BrowserClass;
  send(task: { taskId: string; spec: PageTaskSpec; timeoutMs: number }): void;
  cancel(taskId: string, reason: string): void;
}

interface PendingTask {
  id: string;
  spec: PageTaskSpec;
  browserClass: BrowserClass;
  deadlineAt: number;
  attempts: number;
  workerId: string | undefined;
  resolve(capture: PageCapture): void;
  reject(error: TaskError): void;
  deadlineTimer: NodeJS.Timeout;
  noBrowserTimer: NodeJS.Timeout | undefined;
}

export interface TaskScheduler {
  /** Runs one page task on a worker of its class (basic by default); settles by the deadline at the latest. */
  run(spec: PageTaskSpec, options: { timeoutMs: number; browserClass?: BrowserClass }): Promise<PageCapture>;
  addWorker(worker: Worker): void;
  /** Takes a worker out; its running tasks go back to the queue or fail if they are out of tries. */
  removeWorker(workerId: string): void;
  /** A worker's answer. Ignored (returns false) unless that task is currently assigned to that worker. */
  complete(
    workerId: string,
    taskId: string,
    outcome: { capture: PageCapture } | { error: TaskError },
  ): boolean;
  /** Connected workers, or those of one class. */
  workerCount(browserClass?: BrowserClass): number;
  /** Fails everything still queued or running; used on shutdown. */
  close(): void;
}

/** A task is tried on at most this many browsers when the ones running it disconnect. */
export const MAX_ATTEMPTS = 2;

/**
 * Hands page tasks to workers with free slots, least busy first. Every task has a deadline timer,
 * so nothing waits forever: a task no worker could finish in time fails with SCRAPE_TIMEOUT, and
 * a task that finds no worker connected at all fails after `noBrowserGraceMs` (long enough for a
 * launched browser to start or a crashed one to come back).
 */
export function createTaskScheduler({
  noBrowserGraceMs,
  now = Date.now,
}: {
  noBrowserGraceMs: number;
  now?: () => number;
}): TaskScheduler {
  const workers = new Map<string, Worker>();
  const running = new Map<string, Set<string>>();
  const tasks = new Map<string, PendingTask>();
  const queue: PendingTask[] = [];

  const settle = (task: PendingTask) => {
    tasks.delete(task.id);
    clearTimeout(task.deadlineTimer);
    clearTimeout(task.noBrowserTimer);
    const index = queue.indexOf(task);
    if (index >= 0) queue.splice(index, 1);
    if (task.workerId !== undefined) running.get(task.workerId)?.delete(task.id);
  };

  const fail = (task: PendingTask, error: TaskError) => {
    settle(task);
    task.reject(error);
  };

  const classOf = (worker: Worker): BrowserClass => worker.browserClass ?? 'basic';
  const countOf = (browserClass: BrowserClass) =>
    [...workers.values()].filter((worker) => classOf(worker) === browserClass).length;

  const armNoBrowserTimer = (task: PendingTask) => {
    if (countOf(task.browserClass) > 0 || task.noBrowserTimer !== undefined) return;
    task.noBrowserTimer = setTimeout(() => {
      task.noBrowserTimer = undefined;
      if (countOf(task.browserClass) === 0 && task.workerId === undefined && tasks.has(task.id)) {
        fail(
          task,
          task.browserClass === 'stealth'
            ? new TaskError('NO_STEALTH_BROWSER', 'No stealth browser is connected to take this task')
            : new TaskError('NO_BROWSER', 'No browser is connected to take this task'),
        );
      }
    }, noBrowserGraceMs);
  };

  const pickWorker = (browserClass: BrowserClass): Worker | undefined => {
    let best: Worker | undefined;
    let bestLoad = Infinity;
    for (const worker of workers.values()) {
      if (classOf(worker) !== browserClass) continue;
      const load = running.get(worker.id)?.size ?? 0;
      if (load < worker.capacity && load / worker.capacity < bestLoad) {
        best = worker;
        bestLoad = load / worker.capacity;
      }
    }
    return best;
  };

  const pump = () => {
    // In queue order; a task whose class has no free browser waits without holding up the others.
    for (const task of [...queue]) {
      const worker = pickWorker(task.browserClass);
      if (worker === undefined) continue;
      queue.splice(queue.indexOf(task), 1);
      const timeoutMs = task.deadlineAt - now();
      if (timeoutMs <= 0) continue;
      task.workerId = worker.id;
      task.attempts += 1;
      clearTimeout(task.noBrowserTimer);
      task.noBrowserTimer = undefined;
      running.get(worker.id)?.add(task.id);
      worker.send({ taskId: task.id, spec: task.spec, timeoutMs });
    }
  };

  return {
    run(spec, { timeoutMs, browserClass = 'basic' }) {
      return new Promise<PageCapture>((resolve, reject) => {
        const task: PendingTask = {
          id: randomUUID(),
          spec,
          browserClass,
          deadlineAt: now() + timeoutMs,
          attempts: 0,
          workerId: undefined,
          resolve,
          reject,
          noBrowserTimer: undefined,
          deadlineTimer: setTimeout(() => {
            if (task.workerId !== undefined) workers.get(task.workerId)?.cancel(task.id, 'deadline');
            fail(task, new TaskError('SCRAPE_TIMEOUT', 'Scrape timed out'));
          }, timeoutMs),
        };
        tasks.set(task.id, task);
        queue.push(task);
        armNoBrowserTimer(task);
        pump();
      });
    },

    addWorker(worker) {
      workers.set(worker.id, worker);
      running.set(worker.id, new Set());
      pump();
    },

    removeWorker(workerId) {
      const taskIds = running.get(workerId) ?? new Set<string>();
      workers.delete(workerId);
      running.delete(workerId);
      for (const taskId of taskIds) {
        const task = tasks.get(taskId);
        if (task === undefined) continue;
        task.workerId = undefined;
        if (task.attempts >= MAX_ATTEMPTS) {
          fail(task, new TaskError('BROWSER_LOST', 'The browser running this task disconnected'));
        } else {
          queue.unshift(task);
        }
      }
      for (const task of queue) armNoBrowserTimer(task);
      pump();
    },

    complete(workerId, taskId, outcome) {
      const task = tasks.get(taskId);
      if (task === undefined || task.workerId !== workerId) return false;
      settle(task);
      if ('capture' in outcome) task.resolve(outcome.capture);
      else task.reject(outcome.error);
      pump();
      return true;
    },

    workerCount: (browserClass) => (browserClass === undefined ? workers.size : countOf(browserClass)),

    close() {
      for (const task of [...tasks.values()]) {
        fail(task, new TaskError('BROWSER_LOST', 'The server is shutting down'));
      }
    },
  };
}
