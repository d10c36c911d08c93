import { parentPort } from 'node:worker_threads';
import type { PageCapture } from '../../../shared/protocol/messages';
import { type FetchedPage, deriveFetchedPage } from './derive-fetched-page';
import { type PageDeriveOptions, derivePage } from './derive-page';
import { nameWorkerThread } from './name-worker-thread';
import { WORKER_READY } from './worker-ready';

/** A capture to derive formats from, or a page fetched over HTTP to inspect and derive (fast-path/). */
export type DeriveJob =
  | { id: number; kind: 'derive'; capture: PageCapture; options: PageDeriveOptions }
  | { id: number; kind: 'fetched'; page: FetchedPage; options: PageDeriveOptions };

/** A failure as it crosses the thread: Error subclasses arrive as plain Errors, so the name and selector travel beside it. */
export interface DeriveFailure {
  name: string;
  message: string;
  selector?: string;
}

/** One worker thread of the derivation pool: works on one page at a time, as the pool sends them. */
const port = parentPort;
if (port === null) throw new Error('derivation-worker.ts runs only as a worker thread');
nameWorkerThread('tabhive-derive');
port.postMessage(WORKER_READY);
port.on('message', (job: DeriveJob) => {
  const work: Promise<unknown> =
    job.kind === 'derive' ? derivePage(job.capture, job.options) : deriveFetchedPage(job.page, job.options);
  work.then(
    (result) => port.postMessage({ id: job.id, ok: true, result }),
    (error: unknown) => {
      const failure: DeriveFailure =
        error instanceof Error
          ? {
              name: error.name,
              message: error.message,
              ...('selector' in error && typeof error.selector === 'string'
                ? { selector: error.selector }
                : {}),
            }
          : { name: 'Error', message: String(error) };
      port.postMessage({ id: job.id, ok: false, error: failure });
    },
  );
});
