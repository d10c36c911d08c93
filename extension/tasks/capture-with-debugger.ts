import type { PageCapture, PageTaskSpec } from '../../shared/protocol/messages';
import { runActions } from '../actions/run-actions';
import { borrowCdp, type CdpSession } from '../debugger/cdp-session';
import { catchPdfBodies, isPdf } from '../debugger/catch-pdf-bodies';
import { browserUserAgentMetadata } from '../debugger/user-agent-metadata';
import { COOKIE_BANNER_SCRIPT, MOBILE_METRICS, emulationCommands } from '../debugger/emulation-commands';
import { callSource, evaluateIsolated } from '../debugger/evaluate-isolated';
import { createPageWatch, type DocumentResponse } from '../debugger/page-watch';
import { createAddressGuard, watchPeersOverCdp, type AddressGuard } from '../network/task-address-guard';
import { captureBranding } from '../page/capture-branding';
import { CONTENT_PANELS } from '../../shared/html/content-panels';
import { capturePage, type InPageCapture } from '../page/capture-page';
import { sameDocument } from '../tabs/tab-reuse';
import type { TabDebugger, TaskTab } from '../tabs/task-tab-pool';
import { seedProfileStorage } from './browser-profile';
import { beforeDeadline } from '../task-kit/deadline';
import { isHtml } from './document-types';
import { PageTaskError, navigationError } from '../task-kit/page-task-error';
import { captureSettle, SETTLE_CAP_MS } from '../task-kit/settle-policy';

async function responseBodyText(cdp: CdpSession, requestId: string): Promise<string | undefined> {
  try {
    const { body, base64Encoded } = await cdp.send<{ body: string; base64Encoded: boolean }>(
      'Network.getResponseBody',
      { requestId },
    );
    if (!base64Encoded) return body;
    const bytes = Uint8Array.from(atob(body), (char) => char.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Device, language, clock and position of the task, before navigating; the cookie-banner script
 * too. All of it belongs to the debugger session, which ends when the task gives the tab back.
 */
async function applyEmulation(session: TabDebugger, cdp: CdpSession, spec: PageTaskSpec): Promise<void> {
  for (const command of emulationCommands(spec, navigator.userAgent, await browserUserAgentMetadata())) {
    if (command !== COOKIE_BANNER_SCRIPT) await cdp.send(command.method, command.params);
  }
  await session.setCookieBannerScript(spec.blockAds !== false);
}

/**
 * Refuses a document whose certificate did not verify when the caller asked for verification.
 * CDP's Security domain is closed to extensions ("wasn't found"), so launched browsers accept
 * every certificate (--ignore-certificate-errors, the v2 default) and Chromium marks what it let
 * through as `insecure`; a donor's browser verifies by itself and fails the navigation instead.
 */
function checkCertificate(spec: PageTaskSpec, response: DocumentResponse | undefined): void {
  if (spec.skipTlsVerification !== false || response === undefined) return;
  if (response.securityState === 'insecure' && response.url.startsWith('https:')) {
    throw new PageTaskError('SCRAPE_SSL_ERROR', 'net::ERR_CERT_INVALID (certificate not trusted)');
  }
}

/** Whether the capture shows a PDF (whose tab is left to Chromium's viewer, not reused). */
export const showsPdf = (capture: PageCapture) => capture.pdfBase64 !== undefined;

/**
 * A task with the debugger attached to its tab: emulation, actions, certificate verification, and
 * documents that are not pages (a PDF's bytes, a JSON or text body as sent). Navigates with CDP,
 * waits for `load`, runs the actions (each lets the page settle), settles and captures.
 */
export async function captureWithDebugger(
  spec: PageTaskSpec,
  { deadline, taskSignal, tab }: { deadline: number; taskSignal: AbortSignal; tab: TaskTab },
): Promise<PageCapture> {
  const session = await tab.debugger();
  // The task's own view: its listeners go with it, the session stays until the tab is released.
  const cdp = borrowCdp(session.cdp);
  let guard: AddressGuard | undefined;
  try {
    // A URL differing from the tab's page only by its fragment would not load a new document.
    if (sameDocument(session.mainFrame.url, spec.url)) {
      await cdp.send('Page.navigate', { url: 'about:blank' });
    }
    const mainFrameId = session.mainFrame.id;
    guard = await createAddressGuard(spec.networkPolicy);
    watchPeersOverCdp(guard, cdp, mainFrameId);
    // Cancelled by the server, or by a refused connection: every wait below ends on either.
    const signal = AbortSignal.any([taskSignal, guard.signal]);
    const watch = createPageWatch(cdp, mainFrameId);
    await applyEmulation(session, cdp, spec);
    const stopSeeding = await seedProfileStorage(cdp, spec.profile);
    watch.lifecycle.clear();
    // A PDF's bytes come from the tab's own response, held for them until the page has loaded.
    const pdfBodies = await catchPdfBodies(cdp, mainFrameId);

    const navigation = await beforeDeadline(
      cdp.send<{ errorText?: string }>('Page.navigate', { url: spec.url }),
      deadline,
    );
    tab.url = spec.url;
    const pdfResponse = () => {
      const response = watch.response();
      return response !== undefined && isPdf(response.contentType) ? response : undefined;
    };
    // A PDF the browser would download ends the navigation with ERR_ABORTED after its response.
    if (navigation.errorText && pdfResponse() === undefined) {
      throw pdfBodies.refusal() ?? navigationError(navigation.errorText);
    }

    const loaded = await watch.until(
      () => watch.lifecycle.has('load') || pdfResponse() !== undefined,
      deadline,
      signal,
    );
    if (!loaded) throw new PageTaskError('SCRAPE_TIMEOUT', 'Scrape timed out');
    await stopSeeding();
    const pdf = pdfResponse();
    if (pdf !== undefined) {
      guard.assertClean();
      // The viewer shows the document but holds none of its text: the server parses the bytes.
      const pdfBase64 = await beforeDeadline(pdfBodies.body(pdf.requestId, signal), deadline).finally(() =>
        pdfBodies.stop(),
      );
      return {
        url: pdf.url,
        statusCode: pdf.status,
        contentType: pdf.contentType,
        rawHtml: '',
        renderedHtml: '',
        pdfBase64,
      };
    }
    await pdfBodies.stop();
    checkCertificate(spec, watch.response());
    // Requests the page started by `load` (a fetch that renders the content) may finish first.
    await watch.until(() => !watch.busy(), Math.min(deadline, Date.now() + SETTLE_CAP_MS), signal);

    const hasActions = spec.actions !== undefined && spec.actions.length > 0;
    // The caller's waitFor comes before the actions, as Firecrawl's engines do; else before the capture.
    if (hasActions && spec.waitForMs > 0) {
      await watch.until(() => false, Math.min(deadline, Date.now() + spec.waitForMs), signal);
    }
    const actions =
      spec.actions === undefined || !hasActions
        ? undefined
        : await runActions(
            {
              cdp,
              frameId: mainFrameId,
              watch,
              deadline,
              signal,
              restoreViewport: () =>
                spec.mobile === true
                  ? cdp.send('Emulation.setDeviceMetricsOverride', { ...MOBILE_METRICS })
                  : cdp.send('Emulation.clearDeviceMetricsOverride'),
            },
            spec.actions,
          );

    const page = (
      await beforeDeadline(
        evaluateIsolated(
          cdp,
          mainFrameId,
          callSource(capturePage, {
            settle: captureSettle(deadline, hasActions ? 0 : spec.waitForMs),
            contentPanels: CONTENT_PANELS,
          }),
          { awaitPromise: true },
        ),
        deadline,
      ).catch((err: unknown) => {
        if (err instanceof PageTaskError) throw err;
        throw new PageTaskError('BROWSER_ERROR', `capture failed: ${String(err)}`);
      })
    ).value as InPageCapture;
    const branding =
      spec.branding === true
        ? (await beforeDeadline(evaluateIsolated(cdp, mainFrameId, callSource(captureBranding)), deadline))
            .value
        : undefined;

    // Last, so that a refused connection made while the page ran cannot leave with the capture.
    guard.assertClean();
    const response = watch.response();
    const contentType = response?.contentType ?? page.documentContentType;
    // A JSON or text document is shown by Chromium wrapped in HTML; callers want what was sent.
    const body =
      !isHtml(contentType) && response ? await responseBodyText(cdp, response.requestId) : undefined;
    return {
      url: page.url,
      statusCode: response?.status ?? page.responseStatus ?? 0,
      contentType,
      rawHtml: body ?? page.rawHtml,
      renderedHtml: page.renderedHtml,
      ...(response === undefined || Object.keys(response.blockSignals).length === 0
        ? {}
        : { responseHeaders: response.blockSignals }),
      ...(actions === undefined ? {} : { actions }),
      ...(branding === undefined ? {} : { branding: branding as PageCapture['branding'] }),
    };
  } catch (err) {
    // A refused connection explains whatever failed after it (an aborted wait, a blocked page).
    throw guard?.violation() ?? err;
  } finally {
    cdp.release();
  }
}
