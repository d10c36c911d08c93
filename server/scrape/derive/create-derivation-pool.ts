import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { InvalidSelectorError } from '../../../shared/html/clean-html';
import type { PageCapture } from '../../../shared/protocol/messages';
import { clampTimerMs } from '../../platform/time';
import { errors } from '../../platform/errors';
import type { Log } from '../../platform/log';
import type { FetchedPage, FetchedPageOutcome } from './derive-fetched-page';
import type { PageDerivation, PageDeriveOptions } from './derive-page';
import { derivationErrors } from './derivation-errors';
import type { DeriveFailure, DeriveJob } from './derivation-worker';
import { scrapeDeadline, scrapeTeam } from './scrape-deadline';
import { workerEntry } from './worker-entry';
import { WORKER_READY } from './worker-ready';

/** The worker's module: TypeScript under tsx, the bundle's copy when the server runs built (worker-entry.ts). */
const WORKER = workerEntry(new URL('./derivation-worker.ts', import.meta.url).href, 'derivation-worker.mjs');

/** The most one derivation may run, whatever its scrape's timeout: a page's formats take ms to seconds. */
export const DERIVATION_JOB_CEILING_MS = 60_000;
/** The heap one worker may use; a job that needs more ends its worker, not the server. */
export const DERIVATION_HEAP_MB = 1024;
/** Jobs waiting this long for a worker make the instance not ready (/ready). */
export const DERIVATION_WAIT_ALARM_MS = 30_000;
/** A worker told to stop that is still there after this is wedged: only a restart frees it (/health). */
export const DERIVATION_STOP_GRACE_MS = 5_000;

export interface DerivationPoolProblem {
  reason: string;
  /** Nothing the pool does will clear it (a worker that does not stop): a restart is needed. */
  wedged: boolean;
}

export interface DerivationPool {
  derive(capture: PageCapture, options: PageDeriveOptions): Promise<PageDerivation>;
  /** The verdict and, when the page qualifies, its formats, from one parse (derive-fetched-page.ts). */
  deriveFetched(page: FetchedPage, options: PageDeriveOptions): Promise<FetchedPageOutcome>;
  /**
   * Starts every worker now rather than on first use: loading the derivation code takes a worker
   * a second or more, which the first pages after a start would otherwise wait for. A warmed pool
   * replaces a worker it stops at once.
   */
  warm(): void;
  /** Worker threads running now (not counting those being stopped). */
  workers(): number;
  /** Why the pool cannot serve as it should right now; empty when it can (/ready, /health). */
  problems(): DerivationPoolProblem[];
  close(): Promise<void>;
}

interface Pending {
  job: DeriveJob;
  // The reply's type follows the job's kind; each method knows its own.
  resolve(result: unknown): void;
  reject(error: Error): void;
  queuedAt: number;
  /** The deadline of the scrape that asked (scrape-deadline.ts), if any. */
  deadlineAt: number | undefined;
  /** The team of the scrape that asked, if known: teams take turns. */
  teamId: string | undefined;
  startedAt?: number;
  timer?: NodeJS.Timeout;
}

type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: DeriveFailure };

/**
 * Markdown of a large page and PDF parsing take hundreds of milliseconds of CPU; done on the event
 * loop they would stall every other request, /health included. The pool runs them in worker
 * threads, one job at a time per worker, one worker per core but one (the main thread keeps a
 * core), started on first use.
 *
 * No job may hold a worker for long: each runs until its scrape's deadline or `jobCeilingMs`,
 * whichever comes first, and a job still running then has its worker terminated (a worker stuck in
 * a loop cannot be asked to stop) and replaced, and fails with a clear error. Each worker's heap is
 * capped (`resourceLimits`): a job that needs more ends its worker, which is replaced. With
 * `recycle`, every worker is ended after one job and a fresh one takes its place, so that all the
 * memory a hostile document made the worker take is given back.
 *
 * Teams take turns: a free worker takes the oldest job of the team whose last job started longest
 * ago (or never), so a team that sends a hundred slow documents delays another team's by one job.
 */
export function createDerivationPool({
  log,
  size = Math.max(1, availableParallelism() - 1),
  name = 'page',
  jobCeilingMs = DERIVATION_JOB_CEILING_MS,
  heapMb = DERIVATION_HEAP_MB,
  recycle = false,
  waitAlarmMs = DERIVATION_WAIT_ALARM_MS,
  stopGraceMs = DERIVATION_STOP_GRACE_MS,
  onJobDone,
}: {
  log: Log;
  /** Told how long each job held its worker, message passing included (the `derive` stage's metric). */
  onJobDone?: (ms: number) => void;
  size?: number;
  /** What the pool serves, in logs and problems: `page` (scrapes) or `document` (uploads, PDFs). */
  name?: string;
  jobCeilingMs?: number;
  heapMb?: number;
  recycle?: boolean;
  waitAlarmMs?: number;
  stopGraceMs?: number;
}): DerivationPool {
  const live = new Set<Worker>();
  const idle: Worker[] = [];
  const running = new Map<Worker, Pending>();
  /** Workers told to stop, and when. */
  const stopping = new Map<Worker, number>();
  const queue: Pending[] = [];
  /** When each team's last job started (a sequence number), for taking teams in turn. */
  const lastStart = new Map<string, number>();
  let starts = 0;
  let nextId = 1;
  let warmed = false;
  let closed = false;

  const finish = (pending: Pending) => clearTimeout(pending.timer);

  const spawn = () => {
    const worker = new Worker(WORKER.entry, {
      eval: WORKER.eval,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64 },
    });
    live.add(worker);
    worker.on('message', (reply: Reply | typeof WORKER_READY) => {
      if (reply === WORKER_READY) {
        if (live.has(worker)) release(worker);
        return;
      }
      const pending = running.get(worker);
      if (pending === undefined || pending.job.id !== reply.id) return;
      running.delete(worker);
      finish(pending);
      if (pending.startedAt !== undefined) onJobDone?.(Date.now() - pending.startedAt);
      if (reply.ok) pending.resolve(reply.result);
      else pending.reject(toError(reply.error));
      if (recycle) retire(worker);
      else release(worker);
    });
    worker.on('error', (error: NodeJS.ErrnoException) => {
      const pending = running.get(worker);
      running.delete(worker);
      if (pending !== undefined) {
        finish(pending);
        pending.reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? derivationErrors.tooBig(heapMb)
            : new Error('the derivation worker failed while working on this page'),
        );
      }
      log.warn('derivation worker failed', { pool: name, error: String(error) });
    });
    worker.on('exit', () => {
      live.delete(worker);
      stopping.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      const pending = running.get(worker);
      running.delete(worker);
      if (pending !== undefined) {
        finish(pending);
        pending.reject(new Error('the derivation worker stopped while working on this page'));
      }
      refill();
    });
    return worker;
  };

  /** Ends a worker: it leaves the pool now (a fresh one may take its place) and is terminated. */
  const retire = (worker: Worker) => {
    live.delete(worker);
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    stopping.set(worker, Date.now());
    void worker.terminate();
    refill();
  };

  const refill = () => {
    if (closed) return;
    if (queue.length > 0) dispatch();
    while (warmed && live.size < size) spawn();
  };

  /** The oldest job of the team served least recently; jobs of no known team count as one team. */
  const takeNext = (): Pending | undefined => {
    let best = 0;
    let bestTurn = Infinity;
    queue.forEach((pending, index) => {
      const turn = lastStart.get(pending.teamId ?? '') ?? -1;
      if (turn < bestTurn) {
        best = index;
        bestTurn = turn;
      }
    });
    return queue.splice(best, 1)[0];
  };

  const release = (worker: Worker) => {
    const next = takeNext();
    if (next === undefined) idle.push(worker);
    else start(worker, next);
  };

  const start = (worker: Worker, pending: Pending) => {
    clearTimeout(pending.timer);
    const now = Date.now();
    const untilDeadline = pending.deadlineAt === undefined ? Infinity : pending.deadlineAt - now;
    const byDeadline = untilDeadline < jobCeilingMs;
    pending.startedAt = now;
    lastStart.set(pending.teamId ?? '', (starts += 1));
    pending.timer = setTimeout(
      () => {
        if (running.get(worker) !== pending) return;
        running.delete(worker);
        log.warn('a derivation ran out of time: its worker is stopped and replaced', {
          pool: name,
          ranMs: Date.now() - now,
          limit: byDeadline ? 'scrape timeout' : 'job ceiling',
        });
        pending.reject(byDeadline ? errors.scrapeTimeout() : derivationErrors.tooLong(jobCeilingMs));
        retire(worker);
      },
      clampTimerMs(Math.min(untilDeadline, jobCeilingMs)),
    );
    running.set(worker, pending);
    worker.postMessage(pending.job);
  };

  /** Starts waiting jobs on idle workers, and more workers (up to `size`) for those left. */
  const dispatch = () => {
    while (queue.length > 0) {
      const worker = idle.pop();
      if (worker === undefined) break;
      start(worker, takeNext() as Pending);
    }
    // Workers still loading take the next jobs when they are ready; more start for the rest.
    const starting = live.size - idle.length - running.size;
    for (let missing = Math.min(queue.length - starting, size - live.size); missing > 0; missing -= 1)
      spawn();
  };

  const submit = <T>(job: DeriveJob): Promise<T> => {
    if (closed) return Promise.reject(new Error('the derivation pool is closed'));
    return new Promise<T>((resolve, reject) => {
      const deadlineAt = scrapeDeadline();
      const pending: Pending = {
        job,
        resolve: resolve as (result: unknown) => void,
        reject,
        queuedAt: Date.now(),
        deadlineAt,
        teamId: scrapeTeam(),
      };
      // A job whose scrape runs out of time while it waits leaves the queue then.
      if (deadlineAt !== undefined) {
        pending.timer = setTimeout(
          () => {
            const at = queue.indexOf(pending);
            if (at < 0) return;
            queue.splice(at, 1);
            reject(errors.scrapeTimeout());
          },
          clampTimerMs(deadlineAt - Date.now()),
        );
      }
      queue.push(pending);
      dispatch();
    });
  };

  return {
    derive: (capture, options) => submit<PageDerivation>({ id: nextId++, kind: 'derive', capture, options }),
    deriveFetched: (page, options) =>
      submit<FetchedPageOutcome>({ id: nextId++, kind: 'fetched', page, options }),
    warm() {
      warmed = true;
      refill();
    },
    workers: () => live.size,
    problems() {
      const now = Date.now();
      const found: DerivationPoolProblem[] = [];
      const stuckFor = Math.max(
        0,
        ...[...stopping.values()].map((since) => now - since - stopGraceMs),
        ...[...running.values()].map(
          (pending) => now - (pending.startedAt ?? now) - jobCeilingMs - stopGraceMs,
        ),
      );
      if (stuckFor > 0) {
        found.push({
          reason: `a ${name} derivation worker has run past its time limit and does not stop`,
          wedged: true,
        });
      }
      const oldest = queue.reduce<Pending | undefined>(
        (first, pending) => (first === undefined || pending.queuedAt < first.queuedAt ? pending : first),
        undefined,
      );
      if (oldest !== undefined && now - oldest.queuedAt > waitAlarmMs) {
        found.push({
          reason: `no ${name} derivation worker has been free for ${Math.round((now - oldest.queuedAt) / 1000)} s (${queue.length} waiting)`,
          wedged: false,
        });
      }
      return found;
    },
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) {
        finish(pending);
        pending.reject(new Error('the derivation pool is closed'));
      }
      const workers = [...live, ...running.keys(), ...stopping.keys()];
      await Promise.all([...new Set(workers)].map((worker) => worker.terminate()));
    },
  };
}

function toError(failure: DeriveFailure): Error {
  if (failure.name === 'InvalidSelectorError' && failure.selector !== undefined) {
    return new InvalidSelectorError(failure.selector);
  }
  if (failure.name === 'DerivationLimit') return derivationErrors.limit(failure.message);
  const error = new Error(failure.message);
  error.name = failure.name;
  return error;
}
