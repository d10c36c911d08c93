import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { InvalidSelectorError } from '../../shared/html/clean-html';
import type { PageCapture } from '../../shared/protocol/messages';
import type { Log } from '../log';
import type { FetchedPage, FetchedPageOutcome } from './derive-fetched-page';
import type { PageDerivation, PageDeriveOptions } from './derive-page';
import type { DeriveFailure, DeriveJob } from './derivation-worker';

const WORKER_URL = new URL('./derivation-worker.ts', import.meta.url).href;
/**
 * Workers are plain Node threads that know no TypeScript, whether the server runs under tsx or a
 * test runner: each registers tsx's loader itself before loading the worker module. `execArgv: []`
 * keeps a parent's loader flags from registering a second one.
 */
const BOOTSTRAP = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL)}); });`;

export interface DerivationPool {
  derive(capture: PageCapture, options: PageDeriveOptions): Promise<PageDerivation>;
  /** The verdict and, when the page qualifies, its formats, from one parse (derive-fetched-page.ts). */
  deriveFetched(page: FetchedPage, options: PageDeriveOptions): Promise<FetchedPageOutcome>;
  /**
   * Starts every worker now rather than on first use: loading the derivation code takes a worker
   * a second or more, which the first pages after a start would otherwise wait for.
   */
  warm(): void;
  /** Worker threads running now. */
  workers(): number;
  close(): Promise<void>;
}

interface Pending {
  job: DeriveJob;
  // The reply's type follows the job's kind; each method knows its own.
  resolve(result: unknown): void;
  reject(error: Error): void;
}

type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: DeriveFailure };

/**
 * Markdown of a large page and PDF parsing take hundreds of milliseconds of CPU; done on the event
 * loop they would stall every other request, /health included. The pool runs them in worker
 * threads, one page at a time per worker, one worker per core but one (the main thread keeps a
 * core), started on first use. A worker that dies fails its page and is replaced.
 */
export function createDerivationPool({
  log,
  size = Math.max(1, availableParallelism() - 1),
}: {
  log: Log;
  size?: number;
}): DerivationPool {
  const idle: Worker[] = [];
  const running = new Map<Worker, Pending>();
  const queue: Pending[] = [];
  let started = 0;
  let nextId = 1;
  let closed = false;

  const spawn = () => {
    const worker = new Worker(BOOTSTRAP, { eval: true, execArgv: [] });
    started += 1;
    worker.on('message', (reply: Reply) => {
      const pending = running.get(worker);
      running.delete(worker);
      if (pending !== undefined && pending.job.id === reply.id) {
        if (reply.ok) pending.resolve(reply.result);
        else pending.reject(toError(reply.error));
      }
      release(worker);
    });
    worker.on('error', (error) => log.warn('derivation worker failed', { error: String(error) }));
    worker.on('exit', () => {
      started -= 1;
      const pending = running.get(worker);
      running.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      pending?.reject(new Error('the derivation worker stopped while working on this page'));
      if (!closed && queue.length > 0) dispatch();
    });
    return worker;
  };

  const release = (worker: Worker) => {
    const next = queue.shift();
    if (next === undefined) idle.push(worker);
    else send(worker, next);
  };

  const send = (worker: Worker, pending: Pending) => {
    running.set(worker, pending);
    worker.postMessage(pending.job);
  };

  const dispatch = () => {
    while (queue.length > 0) {
      const worker = idle.pop() ?? (started < size ? spawn() : undefined);
      if (worker === undefined) return;
      send(worker, queue.shift() as Pending);
    }
  };

  const submit = <T>(job: DeriveJob): Promise<T> => {
    if (closed) return Promise.reject(new Error('the derivation pool is closed'));
    return new Promise<T>((resolve, reject) => {
      queue.push({ job, resolve: resolve as (result: unknown) => void, reject });
      dispatch();
    });
  };

  return {
    derive: (capture, options) => submit<PageDerivation>({ id: nextId++, kind: 'derive', capture, options }),
    deriveFetched: (page, options) =>
      submit<FetchedPageOutcome>({ id: nextId++, kind: 'fetched', page, options }),
    warm() {
      while (!closed && started < size) idle.push(spawn());
    },
    workers: () => started,
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error('the derivation pool is closed'));
      const workers = [...idle, ...running.keys()];
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

function toError(failure: DeriveFailure): Error {
  if (failure.name === 'InvalidSelectorError' && failure.selector !== undefined) {
    return new InvalidSelectorError(failure.selector);
  }
  const error = new Error(failure.message);
  error.name = failure.name;
  return error;
}
