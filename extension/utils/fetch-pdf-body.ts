import { MAX_PDF_BASE64_CHARS } from '../../shared/protocol/messages';
import type { CdpSession } from './cdp-session';
import { PageTaskError } from './page-task-error';
import type { DocumentResponse } from './page-watch';

export const isPdf = (contentType: string | undefined) =>
  /^\s*application\/(x-)?pdf\b/i.test(contentType ?? '');

/**
 * The bytes of a PDF the tab navigated to, base64. Chromium hands a PDF to its viewer (or to the
 * download manager when there is none), so the tab's DOM never holds the document. The response
 * body is asked of the debugger first, which has it when the viewer streamed it; otherwise the
 * extension fetches the same URL itself, with the browser's cookies, as the tab would have.
 */
export async function fetchPdfBody(
  cdp: CdpSession,
  response: DocumentResponse,
  headers: Record<string, string> | undefined,
  signal: AbortSignal,
): Promise<string> {
  const fromDebugger = await cdp
    .send<{ body: string; base64Encoded: boolean }>('Network.getResponseBody', {
      requestId: response.requestId,
    })
    .catch(() => undefined);
  // A body that came back as text has been decoded already and its bytes cannot be recovered; and
  // depending on timing the debugger answers with the viewer's wrapper page instead of the document.
  if (fromDebugger?.base64Encoded && startsAsPdf(fromDebugger.body)) return capped(fromDebugger.body);

  const fetched = await fetch(response.url, { credentials: 'include', headers: headers ?? {}, signal });
  if (!fetched.ok) throw new PageTaskError('SCRAPE_SITE_ERROR', `PDF download answered ${fetched.status}`);
  const length = Number(fetched.headers.get('content-length') ?? 0);
  if (length * (4 / 3) > MAX_PDF_BASE64_CHARS) throw tooLarge();
  return capped(toBase64(new Uint8Array(await fetched.arrayBuffer())));
}

/** The `%PDF-` header, which readers accept anywhere in the first 1024 bytes (1368 base64 characters). */
function startsAsPdf(base64: string): boolean {
  try {
    return atob(base64.slice(0, 1368)).includes('%PDF-');
  } catch {
    return false;
  }
}

function capped(base64: string): string {
  if (base64.length > MAX_PDF_BASE64_CHARS) throw tooLarge();
  return base64;
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
