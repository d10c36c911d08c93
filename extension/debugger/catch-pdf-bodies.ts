import { MAX_PDF_BASE64_CHARS } from '../../shared/protocol/messages';
import type { CdpSession } from './cdp-session';
import { PageTaskError } from '../task-kit/page-task-error';

export const isPdf = (contentType: string | undefined) =>
  /^\s*application\/(x-)?pdf\b/i.test(contentType ?? '');

/** A `Fetch.requestPaused` event at the response stage: the fields read here. */
interface PausedResponse {
  /** The interception's id, which Fetch.* commands take. */
  requestId: string;
  /** The Network domain's id of the same request (DocumentResponse.requestId). */
  networkId?: string;
  frameId?: string;
  responseStatusCode?: number;
  responseErrorReason?: string;
  responseHeaders?: Array<{ name: string; value: string }>;
}

export interface PdfBodies {
  /**
   * The bytes, base64, of the PDF the main frame received in the Network request `requestId`,
   * exactly as the site sent them (content encodings undone). Rejects when they could not be read.
   */
  body(requestId: string, signal: AbortSignal): Promise<string>;
  /** Why a PDF was kept from loading (too large), if one was: the navigation failed for it. */
  refusal(): PageTaskError | undefined;
  /** Ends the interception; safe to repeat, and after the session detached. */
  stop(): Promise<void>;
}

/**
 * Holds the main frame's document responses at the response stage so that a PDF's bytes are read
 * from the tab's own response: Chromium hands a PDF to its viewer, which leaves nothing of it in
 * the tab's DOM or behind Network.getResponseBody (that answers with the viewer's wrapper page, or
 * nothing), and the viewer's frame ends the debugger session. Reading the response the tab itself
 * received means no request of the extension's own: nothing outside the tab's URL-policy rules,
 * address guard and a donor's fence, no redirect followed by anyone but the tab.
 *
 * Every paused response is continued as it came, the PDF too once its body is read, so that
 * Network.responseReceived still reports the address Chromium connected to (the address guard
 * checks it) and the page or download goes on as it would have. A PDF declared larger than a task
 * may send is failed without reading it.
 */
export async function catchPdfBodies(cdp: CdpSession, mainFrameId: string): Promise<PdfBodies> {
  const bodies = new Map<string, Promise<string>>();
  let refused: PageTaskError | undefined;
  let stopped = false;

  const keep = (networkId: string, body: Promise<string>) => {
    // Read by body() or never: a rejection nobody awaits must not surface as unhandled.
    body.catch(() => undefined);
    bodies.set(networkId, body);
  };

  async function readBody(paused: PausedResponse): Promise<string> {
    const declared = Number(header(paused, 'content-length') ?? 0);
    if (Number.isFinite(declared) && declared * (4 / 3) > MAX_PDF_BASE64_CHARS) throw tooLarge();
    const { body, base64Encoded } = await cdp.send<{ body: string; base64Encoded: boolean }>(
      'Fetch.getResponseBody',
      { requestId: paused.requestId },
    );
    const base64 = base64Encoded ? body : toBase64(new TextEncoder().encode(body));
    if (base64.length > MAX_PDF_BASE64_CHARS) throw tooLarge();
    return base64;
  }

  async function onPaused(paused: PausedResponse): Promise<void> {
    const status = paused.responseStatusCode ?? 0;
    const redirect = status >= 300 && status < 400 && header(paused, 'location') !== undefined;
    const mainFramePdf =
      paused.frameId === mainFrameId &&
      paused.networkId !== undefined &&
      paused.responseErrorReason === undefined &&
      !redirect &&
      isPdf(header(paused, 'content-type'));
    if (mainFramePdf) {
      const body = readBody(paused);
      keep(paused.networkId as string, body);
      const tooLargeToRead = await body.then(
        () => undefined,
        (err: unknown) => (err instanceof PageTaskError ? err : undefined),
      );
      if (tooLargeToRead !== undefined) {
        // Continued, the browser would go on downloading what the task cannot send.
        refused = tooLargeToRead;
        await cdp
          .send('Fetch.failRequest', { requestId: paused.requestId, errorReason: 'Aborted' })
          .catch(() => undefined);
        return;
      }
    }
    await cdp.send('Fetch.continueRequest', { requestId: paused.requestId }).catch(() => undefined);
  }

  const stopListening = cdp.onEvent((method, params) => {
    if (method === 'Fetch.requestPaused') void onPaused(params as unknown as PausedResponse);
  });
  try {
    await cdp.send('Fetch.enable', {
      patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Response' }],
    });
  } catch (err) {
    stopListening();
    throw err;
  }

  return {
    body(requestId, signal) {
      const body = bodies.get(requestId);
      if (body === undefined) {
        return Promise.reject(
          new PageTaskError('SCRAPE_SITE_ERROR', 'The PDF’s bytes were not seen in the tab'),
        );
      }
      return new Promise<string>((resolve, reject) => {
        const onAbort = () => reject(new PageTaskError('TASK_CANCELLED', 'cancelled'));
        if (signal.aborted) onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        body
          .then(resolve, (err: unknown) =>
            reject(
              err instanceof PageTaskError
                ? err
                : new PageTaskError('SCRAPE_SITE_ERROR', `The PDF could not be read: ${String(err)}`),
            ),
          )
          .finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
    refusal: () => refused,
    async stop() {
      if (stopped) return;
      stopped = true;
      // Disabling lets any response still held go on; listening ends after, so none is stranded.
      await cdp.send('Fetch.disable').catch(() => undefined);
      stopListening();
    },
  };
}

function header(paused: PausedResponse, name: string): string | undefined {
  return paused.responseHeaders?.find((entry) => entry.name.toLowerCase() === name)?.value;
}

function tooLarge(): PageTaskError {
  const mib = Math.floor((MAX_PDF_BASE64_CHARS * 3) / 4 / 1024 / 1024);
  return new PageTaskError(
    'SCRAPE_SITE_ERROR',
    `The PDF is larger than ${mib} MiB, the most a browser sends`,
  );
}

/** btoa takes a binary string; building it in chunks keeps String.fromCharCode's argument list small. */
function toBase64(bytes: Uint8Array): string {
  const CHUNK = 0x8000;
  let binary = '';
  for (let index = 0; index < bytes.length; index += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(index, index + CHUNK));
  }
  return btoa(binary);
}
