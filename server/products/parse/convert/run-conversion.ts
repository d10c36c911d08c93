import { Worker } from 'node:worker_threads';
import { clampTimerMs } from '../../../platform/time';
import { DocumentProblem } from '../document-problem';
import type { ConversionReply } from './conversion-worker';
import type { ConvertJob, Converted } from './convert-document';

const WORKER_URL = new URL('./conversion-worker.ts', import.meta.url).href;
/** As in the derivation pool: the thread registers tsx itself, and takes no loader flags from its parent. */
const BOOTSTRAP = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL)}); });`;

/** Conversions running at once; more wait their turn, so that memory stays bounded by this times the heap cap. */
export const MAX_CONCURRENT_CONVERSIONS = 2;
/** The heap one conversion may use: a document that needs more is refused, the server goes on. */
export const CONVERSION_HEAP_MB = 512;
/** The most one conversion may run, whatever the request's timeout: real documents take seconds. */
export const CONVERSION_CEILING_MS = 60_000;

export class ConversionTimeoutError extends Error {
  /** The conversion hit CONVERSION_CEILING_MS (not the request's own timeout). */
  readonly ceilingMs: number | undefined;

  constructor(ceilingMs?: number) {
    super('the conversion ran out of time');
    this.ceilingMs = ceilingMs;
  }
}

export interface DocumentConverter {
  /** Throws DocumentProblem for a document that cannot be converted, ConversionTimeoutError past `timeoutMs`. */
  convert(job: ConvertJob, timeoutMs: number): Promise<Converted>;
}

/**
 * Runs each conversion in a worker thread of its own: DOCX and spreadsheets take seconds of CPU
 * that would stall every other request on the event loop, and a document that needs more memory
 * than CONVERSION_HEAP_MB ends its thread (ERR_WORKER_OUT_OF_MEMORY), not the server. The thread
 * is terminated when the time is up (the request's timeout, at most `ceilingMs`), and after every
 * conversion, which frees all it held.
 */
export function createDocumentConverter({
  maxConcurrent = MAX_CONCURRENT_CONVERSIONS,
  heapMb = CONVERSION_HEAP_MB,
  ceilingMs = CONVERSION_CEILING_MS,
  onUnexpected = () => undefined,
}: {
  maxConcurrent?: number;
  heapMb?: number;
  ceilingMs?: number;
  /** Told of a converter library's own failure (a bug, or a document it cannot handle). */
  onUnexpected?: (message: string) => void;
} = {}): DocumentConverter {
  let running = 0;
  const waiting: Array<() => void> = [];
  const turn = (): Promise<void> => {
    if (running < maxConcurrent) {
      running += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => waiting.push(resolve));
  };
  // A finished conversion hands its place to the next in line, if any.
  const done = () => {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  };

  const runOnce = (job: ConvertJob, timeoutMs: number) =>
    new Promise<Converted>((resolve, reject) => {
      const worker = new Worker(BOOTSTRAP, {
        eval: true,
        execArgv: [],
        workerData: job,
        resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64 },
      });
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
        void worker.terminate();
      };
      const byCeiling = ceilingMs < timeoutMs;
      const timer = setTimeout(
        () => settle(() => reject(new ConversionTimeoutError(byCeiling ? ceilingMs : undefined))),
        clampTimerMs(Math.min(timeoutMs, ceilingMs)),
      );
      worker.on('message', (reply: ConversionReply) =>
        settle(() => {
          if (reply.ok) return resolve(reply.result);
          if (reply.unexpected) onUnexpected(reply.message);
          reject(new DocumentProblem(reply.kind, reply.message));
        }),
      );
      worker.on('error', (error: NodeJS.ErrnoException) =>
        settle(() =>
          reject(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new DocumentProblem('archive-limit', `converting it needs more than ${heapMb} MB of memory`)
              : error,
          ),
        ),
      );
      worker.on('exit', (code) =>
        settle(() =>
          reject(new Error(`the conversion thread stopped (exit code ${code}) before it answered`)),
        ),
      );
    });

  return {
    async convert(job, timeoutMs) {
      // Time spent waiting for a turn is part of the request's timeout.
      const deadlineAt = Date.now() + timeoutMs;
      await turn();
      try {
        return await runOnce(job, deadlineAt - Date.now());
      } finally {
        done();
      }
    },
  };
}
