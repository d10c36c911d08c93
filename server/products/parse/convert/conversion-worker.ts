import { parentPort, workerData } from 'node:worker_threads';
import { DocumentProblem, type ProblemKind } from '../document-problem';
import { type ConvertJob, convertDocument } from './convert-document';

/** A conversion's outcome as it crosses the thread. */
export type ConversionReply =
  | { ok: true; result: Awaited<ReturnType<typeof convertDocument>> }
  | { ok: false; kind: ProblemKind; message: string; unexpected: boolean };

/**
 * One conversion, in a thread of its own (run-conversion.ts starts one per upload and ends it
 * after): the job comes as workerData, the answer goes back as one message. Any error is the
 * document's: a converter library that throws on an input has met a document it cannot read.
 */
const port = parentPort;
if (port === null) throw new Error('conversion-worker.ts runs only as a worker thread');
convertDocument(workerData as ConvertJob).then(
  (result) => port.postMessage({ ok: true, result } satisfies ConversionReply),
  (error: unknown) => {
    const reply: ConversionReply =
      error instanceof DocumentProblem
        ? { ok: false, kind: error.kind, message: error.message, unexpected: false }
        : {
            ok: false,
            kind: 'broken',
            message: error instanceof Error ? error.message : String(error),
            unexpected: true,
          };
    port.postMessage(reply);
  },
);
