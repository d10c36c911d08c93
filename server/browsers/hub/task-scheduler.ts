import { randomUUID } from 'node:crypto';
import type {
  BrowserClass,
  PageCapture,
  PageTaskSpec,
  SessionCommandMessage,
  SessionEndMessage,
} from '../../../shared/protocol/messages';
import { MAX_TIMER_MS } from '../../platform/time';
import { TaskError } from './task-error';
import { donatedTaskRefusal, type Donation } from './donation';

/** A browser as the scheduler sees it: how many tasks it takes at once, and how to hand it one. */
export interface Worker {
  readonly id: string;
  readonly capacity: number;
  /** Tasks go only to browsers of their class; basic when absent. */
  readonly browserClass?: BrowserClass;
  /** Present for a team's donated browser: it takes that team's tasks on its domains and no others. */
  readonly donation?: Donation;
  /**
   * A pool browser that serves one team only (a browser node joined with that team's node token):
   * it takes the team's tasks and no others, and the team's tasks prefer it to the shared pool.
   */
  readonly teamId?: string;
  /**
   * A browser launched for one task, a browser session (session-browsers): it takes that task and
   * no other, and that task (run with `ownBrowser`) goes to no other browser. It never counts as
   * the pool's, so a session never holds a browser other teams' tasks wait for.
   */
  readonly reservedFor?: string;
  /**
   * `stateKey` (pool browsers only) names whose cookies and storage the task runs in: the
   * scheduler never runs tasks of two keys on one pool browser at once, and the browser wipes its
   * state before a task whose key is not the last one's.
   */
  send(task: { taskId: string; spec: PageTaskSpec; timeoutMs: number; stateKey?: string }): void;
  cancel(taskId: string, reason: string): void;
  /** Hands a session task (spec.session) one of its commands, or its end. */
  sendSession?(message: SessionCommandMessage | SessionEndMessage): void;
}

export interface RunOptions {
  timeoutMs: number;
  browserClass?: BrowserClass;
  /** The team the task is for; only then may one of the team's donated browsers run it. */
  teamId?: string;
  /**
   * `background` for the pages of crawl and batch jobs: a waiting task that someone waits for
   * (a scrape, a search, a map's start page) goes to the next free tab before any of them.
   */
  priority?: TaskPriority;
  /**
   * The task runs in browser state of its own (a browser profile's scrape): on a pool browser
   * only, never beside another task there, with a state key no other task has, so the browser is
   * wiped before it and again before whatever runs there next.
   */
  isolated?: boolean;
  /** The task's id, for a caller that talks to it while it runs (a session); a fresh one when absent. */
  taskId?: string;
  /** Told each time the task is handed to a browser (a session's commands may go there from then on). */
  onStarted?: () => void;
  /**
   * The task runs only on the browser launched for it (Worker.reservedFor is its id), and waits
   * for that browser to connect: a browser session's own browser.
   */
  ownBrowser?: boolean;
  /**
   * Only one of the team's donated browsers that allows the URL may run the task, never a pool
   * browser: the server routed it there because only that browser may reach the site (an
   * intranet name). It waits for such a browser up to its deadline, and fails then with
   * DONATED_BROWSER_UNAVAILABLE if none took it.
   */
  donatedOnly?: boolean;
}

export type TaskPriority = 'interactive' | 'background';

/** A task a worker runs now, read-only (the console's browsers page). */
export interface RunningTask {
  taskId: string;
  /** The task's URL as given: whoever shows it strips what must not be shown (display-url.ts). */
  url: string;
  /** The team it runs for; absent for tasks of no team. */
  teamId?: string;
  /** When it was handed to this worker (ms since the epoch). */
  startedAt: number;
}

/** A read-only view of the scheduler's browsers and queue at one moment (metrics). */
export interface SchedulerSnapshot {
  workers: Array<{
    id: string;
    browserClass: BrowserClass;
    /** The team a donated browser, or a team's own pool browser, serves; absent for the shared pool. */
    teamId?: string;
    donated: boolean;
    draining: boolean;
    capacity: number;
    running: number;
  }>;
  /** Tasks waiting for a browser, by priority. */
  queued: Record<TaskPriority, number>;
}

interface PendingTask {
  id: string;
  spec: PageTaskSpec;
  browserClass: BrowserClass;
  teamId: string | undefined;
  priority: TaskPriority;
  isolated: boolean;
  ownBrowser: boolean;
  donatedOnly: boolean;
  deadlineAt: number;
  attempts: number;
  onStarted: (() => void) | undefined;
  workerId: string | undefined;
  /** When it was last handed to a worker. */
  startedAt: number | undefined;
  resolve(capture: PageCapture): void;
  reject(error: TaskError): void;
  deadlineTimer: NodeJS.Timeout;
  noBrowserTimer: NodeJS.Timeout | undefined;
}

export interface TaskScheduler {
  /**
   * Runs one page task and settles by the deadline at the latest: on one of its team's donated
   * browsers whose owner allows the URL when one is connected (that is where the login is), else
   * on a pool browser of its class (basic by default).
   */
  run(spec: PageTaskSpec, options: RunOptions): Promise<PageCapture>;
  addWorker(worker: Worker): void;
  /** Takes a worker out; its running tasks go back to the queue or fail if they are out of tries. */
  removeWorker(workerId: string): void;
  /** A worker's answer. Ignored (returns false) unless that task is currently assigned to that worker. */
  complete(
    workerId: string,
    taskId: string,
    outcome: { capture: PageCapture } | { error: TaskError },
  ): boolean;
  /** Connected workers, or the pool workers of one class. */
  workerCount(browserClass?: BrowserClass): number;
  /**
   * The worker takes no new tasks (its browser node is shutting down); what it runs goes on, and
   * goes back to the queue if the worker leaves before it finishes.
   */
  drain(workerId: string): boolean;
  /**
   * Tabs of the shared pool's browsers of a class (not draining, not a team's own) that no
   * interactive task holds or waits for: what this instance could take on for another one.
   */
  spareSlots(browserClass: BrowserClass): number;
  /** Whether a pool browser of the class that is not draining is connected (the team's own included). */
  hasPoolBrowser(browserClass: BrowserClass, teamId?: string): boolean;
  /** Whether a connected donated browser of the team takes tasks for this URL. */
  donatedCovers(teamId: string, url: string): boolean;
  /** The team's connected donated browsers that take tasks for this URL, and whether each is full. */
  donatedBrowsersFor(teamId: string, url: string): Array<{ browserId: string; busy: boolean }>;
  /** The worker running a task now; undefined while it waits in the queue or once it settled. */
  workerOf(taskId: string): Worker | undefined;
  /** The tasks a worker runs now, oldest first; empty for an unknown worker. */
  runningTasks(workerId: string): RunningTask[];
  /**
   * Gives up a task, queued or running (the browser is told to stop it): it fails with
   * TASK_CANCELLED. False when no such task is pending.
   */
  cancel(taskId: string, reason: string): boolean;
  /** Fails everything still queued or running; used on shutdown. */
  close(): void;
  /** The browsers, their load and the queue as they are now, read-only (for the metrics). */
  snapshot(): SchedulerSnapshot;
}

/** A task is tried on at most this many browsers when the ones running it disconnect. */
export const MAX_ATTEMPTS = 2;

/** Whose browser state a task runs in on a pool browser: its team's, or that of tasks for no team. */
export const stateKeyOf = (teamId: string | undefined) =>
  teamId === undefined ? 'no-team' : `team:${teamId}`;

/** An isolated task's key is its own: no other task ever shares its browser state. */
const taskStateKey = (task: PendingTask) => (task.isolated ? `task:${task.id}` : stateKeyOf(task.teamId));

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
  /** Workers that take no new tasks. */
  const draining = new Set<string>();
  /**
   * Pool browsers' state owner: the key of the tasks running there, or of the last ones. A team's
   * cookies and storage must never meet another team's tasks (H1 of the red-team report), and one
   * browser profile holds one jar; so a pool browser serves one key at a time, and changes key
   * only when it is idle.
   */
  const stateOwner = new Map<string, string>();
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
  /** Pool browsers: neither a team's donated browser nor one launched for a single session. */
  const inPool = (worker: Worker) => worker.donation === undefined && worker.reservedFor === undefined;
  const countOf = (browserClass: BrowserClass) =>
    [...workers.values()].filter((worker) => inPool(worker) && classOf(worker) === browserClass).length;
  /** Pool workers (shared, or the team's own) that take tasks of this class for this team now. */
  const poolFor = (browserClass: BrowserClass, teamId: string | undefined) =>
    [...workers.values()].filter(
      (worker) =>
        inPool(worker) &&
        !draining.has(worker.id) &&
        classOf(worker) === browserClass &&
        (worker.teamId === undefined || worker.teamId === teamId),
    );

  /** The team's donated browsers that cover the task's URL, whatever its actions. */
  const donatedFor = (teamId: string | undefined, spec: PageTaskSpec) =>
    teamId === undefined
      ? []
      : [...workers.values()].filter(
          (worker) =>
            worker.donation !== undefined &&
            donatedTaskRefusal(worker.donation, { teamId, url: spec.url, actions: [] }) === undefined,
        );

  /**
   * Who may run a task now: the covering donated browsers that also accept its actions when there
   * are any (a task never falls back to the pool while its team's login is connected), else the
   * pool browsers of its class. Donated browsers of other teams never.
   */
  const candidatesFor = (task: PendingTask): Worker[] => {
    if (task.ownBrowser) {
      return [...workers.values()].filter(
        (worker) => worker.reservedFor === task.id && !draining.has(worker.id),
      );
    }
    const donated = task.isolated ? [] : donatedFor(task.teamId, task.spec);
    if (donated.length > 0 || task.donatedOnly) {
      return donated.filter(
        (worker) =>
          donatedTaskRefusal(worker.donation as Donation, {
            teamId: task.teamId as string,
            url: task.spec.url,
            actions: task.spec.actions ?? [],
            headers: task.spec.headers,
          }) === undefined,
      );
    }
    return poolFor(task.browserClass, task.teamId);
  };

  const armNoBrowserTimer = (task: PendingTask) => {
    // A task for the team's donated browser waits for it until its deadline (RunOptions.donatedOnly).
    if (task.donatedOnly) return;
    if (candidatesFor(task).length > 0 || task.noBrowserTimer !== undefined) return;
    task.noBrowserTimer = setTimeout(() => {
      task.noBrowserTimer = undefined;
      if (candidatesFor(task).length === 0 && task.workerId === undefined && tasks.has(task.id)) {
        fail(
          task,
          task.ownBrowser
            ? new TaskError('NO_BROWSER', 'The browser launched for this session did not connect')
            : task.browserClass === 'stealth'
              ? new TaskError('NO_STEALTH_BROWSER', 'No stealth browser is connected to take this task')
              : new TaskError('NO_BROWSER', 'No browser is connected to take this task'),
        );
      }
    }, noBrowserGraceMs);
  };

  /**
   * The least busy candidate with a free slot whose state the task may share: a donated browser
   * (its team's own), or a pool browser that runs the task's key or nothing. An idle pool browser
   * that last served another key comes last (it must be wiped first). When every candidate with a
   * free slot runs another key, the task claims the least busy of them (`claimed`): no task queued
   * behind it may start there, so the browser drains and then changes hands, and a busy team
   * cannot keep another out for good.
   */
  const pickWorker = (task: PendingTask, claimed: Set<string>): Worker | undefined => {
    const key = taskStateKey(task);
    let best: Worker | undefined;
    let bestRank = Infinity;
    let blocked: Worker | undefined;
    let blockedLoad = Infinity;
    for (const worker of candidatesFor(task)) {
      const load = running.get(worker.id)?.size ?? 0;
      if (load >= worker.capacity || claimed.has(worker.id)) continue;
      const owner = worker.donation === undefined ? stateOwner.get(worker.id) : key;
      if (load > 0 && owner !== key) {
        if (load < blockedLoad) [blocked, blockedLoad] = [worker, load];
        continue;
      }
      // Below 1: browsers already holding the key (or nothing); 1 and above: those to be wiped.
      // The team's own browsers go before the shared pool's, by half a browser's load.
      const rank =
        load / worker.capacity +
        (owner === undefined || owner === key ? 0 : 1) -
        (worker.teamId !== undefined ? 0.5 : 0);
      if (rank < bestRank) [best, bestRank] = [worker, rank];
    }
    if (best === undefined && blocked !== undefined) claimed.add(blocked.id);
    return best;
  };

  const pump = () => {
    const claimed = new Set<string>();
    // In queue order; a task whose class has no free browser waits without holding up the others.
    for (const task of [...queue]) {
      const worker = pickWorker(task, claimed);
      if (worker === undefined) continue;
      queue.splice(queue.indexOf(task), 1);
      const timeoutMs = task.deadlineAt - now();
      if (timeoutMs <= 0) continue;
      task.workerId = worker.id;
      task.startedAt = now();
      task.attempts += 1;
      clearTimeout(task.noBrowserTimer);
      task.noBrowserTimer = undefined;
      running.get(worker.id)?.add(task.id);
      if (worker.donation === undefined) {
        const stateKey = taskStateKey(task);
        stateOwner.set(worker.id, stateKey);
        worker.send({ taskId: task.id, spec: task.spec, timeoutMs, stateKey });
      } else {
        worker.send({ taskId: task.id, spec: task.spec, timeoutMs });
      }
      task.onStarted?.();
    }
  };

  return {
    run(
      spec,
      {
        timeoutMs,
        browserClass = 'basic',
        teamId,
        priority = 'interactive',
        isolated = false,
        taskId,
        onStarted,
        ownBrowser = false,
        donatedOnly = false,
      },
    ) {
      // Refused before anything is sent: the team's login is connected for this URL, and no
      // browser holding it allows what the task asks (executeJavascript, a Cookie header).
      const covering = isolated || ownBrowser ? [] : donatedFor(teamId, spec);
      const refusals = covering.map((worker) =>
        donatedTaskRefusal(worker.donation as Donation, {
          teamId: teamId as string,
          url: spec.url,
          actions: spec.actions ?? [],
          headers: spec.headers,
        }),
      );
      if (covering.length > 0 && refusals.every((refusal) => refusal !== undefined)) {
        return Promise.reject(new TaskError('DONATED_BROWSER_REFUSED', refusals[0] as string));
      }
      if (taskId !== undefined && tasks.has(taskId)) {
        return Promise.reject(new TaskError('BROWSER_ERROR', `task ${taskId} is already running`));
      }
      return new Promise<PageCapture>((resolve, reject) => {
        const task: PendingTask = {
          id: taskId ?? randomUUID(),
          spec,
          browserClass,
          teamId,
          priority,
          isolated,
          ownBrowser,
          donatedOnly,
          deadlineAt: now() + timeoutMs,
          attempts: 0,
          onStarted,
          workerId: undefined,
          startedAt: undefined,
          resolve,
          reject,
          noBrowserTimer: undefined,
          deadlineTimer: setTimeout(
            () => {
              if (task.workerId !== undefined) workers.get(task.workerId)?.cancel(task.id, 'deadline');
              fail(
                task,
                task.donatedOnly && task.workerId === undefined
                  ? new TaskError(
                      'DONATED_BROWSER_UNAVAILABLE',
                      "None of the team's donated browsers that allow this URL took the task in time",
                    )
                  : new TaskError('SCRAPE_TIMEOUT', 'Scrape timed out'),
              );
            },
            Math.min(timeoutMs, MAX_TIMER_MS),
          ),
        };
        tasks.set(task.id, task);
        // Interactive tasks queue ahead of every background one, in arrival order among themselves.
        const firstBackground = queue.findIndex((queued) => queued.priority === 'background');
        if (priority === 'interactive' && firstBackground >= 0) queue.splice(firstBackground, 0, task);
        else queue.push(task);
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
      stateOwner.delete(workerId);
      draining.delete(workerId);
      for (const taskId of taskIds) {
        const task = tasks.get(taskId);
        if (task === undefined) continue;
        task.workerId = undefined;
        // A session's tab, its page and whatever the caller did there are gone with the browser:
        // another browser would start over from nothing, so the session ends instead.
        if (task.attempts >= MAX_ATTEMPTS || task.spec.session !== undefined) {
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
      if ('capture' in outcome) {
        // Only the scheduler knows where a capture was made; whatever the browser claimed goes.
        const { donated: _claimed, teamNode: _claimedNode, ...capture } = outcome.capture;
        const worker = workers.get(workerId);
        task.resolve(
          worker?.donation !== undefined
            ? { ...capture, donated: true }
            : // A team's own node is the team's: what it answers is cached for that team only.
              worker?.teamId !== undefined
              ? { ...capture, teamNode: true }
              : capture,
        );
      } else {
        task.reject(outcome.error);
      }
      pump();
      return true;
    },

    workerCount: (browserClass) => (browserClass === undefined ? workers.size : countOf(browserClass)),

    drain(workerId) {
      if (!workers.has(workerId)) return false;
      draining.add(workerId);
      // Queued tasks that only this worker could have taken wait for another (or fail in time).
      for (const task of queue) armNoBrowserTimer(task);
      return true;
    },

    spareSlots(browserClass) {
      // Tabs another instance's waiting caller may have here: the shared pool's tabs less the
      // interactive tasks running or waiting on them. Job pages (background) do not count: an
      // interactive task takes the next tab that frees ahead of them, so a crawl filling every tab
      // must not keep other instances' scrapes out until it ends.
      const pool = [...workers.values()].filter(
        (worker) =>
          inPool(worker) &&
          worker.teamId === undefined &&
          !draining.has(worker.id) &&
          classOf(worker) === browserClass,
      );
      const poolIds = new Set(pool.map((worker) => worker.id));
      const tabs = pool.reduce((sum, worker) => sum + worker.capacity, 0);
      const interactive = [...tasks.values()].filter(
        (task) =>
          task.priority === 'interactive' &&
          task.browserClass === browserClass &&
          (task.workerId === undefined ? queue.includes(task) : poolIds.has(task.workerId)),
      ).length;
      return Math.max(0, tabs - interactive);
    },

    hasPoolBrowser: (browserClass, teamId) => poolFor(browserClass, teamId).length > 0,

    donatedCovers: (teamId, url) => donatedFor(teamId, { url } as PageTaskSpec).length > 0,

    donatedBrowsersFor: (teamId, url) =>
      donatedFor(teamId, { url } as PageTaskSpec).map((worker) => ({
        browserId: worker.id,
        busy: (running.get(worker.id)?.size ?? 0) >= worker.capacity,
      })),

    cancel(taskId, reason) {
      const task = tasks.get(taskId);
      if (task === undefined) return false;
      if (task.workerId !== undefined) workers.get(task.workerId)?.cancel(task.id, reason);
      fail(task, new TaskError('TASK_CANCELLED', reason));
      pump();
      return true;
    },

    workerOf(taskId) {
      const workerId = tasks.get(taskId)?.workerId;
      return workerId === undefined ? undefined : workers.get(workerId);
    },

    runningTasks(workerId) {
      return [...(running.get(workerId) ?? [])]
        .flatMap((taskId) => {
          const task = tasks.get(taskId);
          return task === undefined ? [] : [task];
        })
        .map((task) => ({
          taskId: task.id,
          url: task.spec.url,
          ...(task.teamId === undefined ? {} : { teamId: task.teamId }),
          startedAt: task.startedAt ?? now(),
        }))
        .sort((a, b) => a.startedAt - b.startedAt);
    },

    close() {
      for (const task of [...tasks.values()]) {
        fail(task, new TaskError('BROWSER_LOST', 'The server is shutting down'));
      }
    },

    snapshot() {
      const teamOf = (worker: Worker) => worker.donation?.teamId ?? worker.teamId;
      return {
        workers: [...workers.values()].map((worker) => ({
          id: worker.id,
          browserClass: classOf(worker),
          ...(teamOf(worker) === undefined ? {} : { teamId: teamOf(worker) }),
          donated: worker.donation !== undefined,
          draining: draining.has(worker.id),
          capacity: worker.capacity,
          running: running.get(worker.id)?.size ?? 0,
        })),
        queued: {
          interactive: queue.filter((task) => task.priority === 'interactive').length,
          background: queue.filter((task) => task.priority === 'background').length,
        },
      };
    },
  };
}
