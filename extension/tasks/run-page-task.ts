import { browser } from 'wxt/browser';
import type { PageCapture, PageTaskSpec, TaskMessage } from '../../shared/protocol/messages';
import { borrowCdp, type BorrowedCdpSession, type CdpSession } from '../debugger/cdp-session';
import { captureBranding } from '../page/capture-branding';
import { capturePage, type InPageCapture } from '../page/capture-page';
import { COOKIE_BANNER_SCRIPT, MOBILE_METRICS, emulationCommands } from '../debugger/emulation-commands';
import { callSource, evaluateIsolated } from '../debugger/evaluate-isolated';
import { catchPdfBodies, isPdf } from '../debugger/catch-pdf-bodies';
import { pageIsInert } from '../page/page-is-inert';
import { PageTaskError, navigationError } from './page-task-error';
import { beforeDeadline, createPageWatch, type DocumentResponse } from '../debugger/page-watch';
import { runActions } from '../actions/run-actions';
import { taskAdRules } from '../network/standing-ad-block';
import { checkTaskUrl, createAddressGuard, type AddressGuard } from '../network/task-address-guard';
import { taskJournal } from './task-journal';
import {
  addTaskRules,
  allocateTaskRuleIds,
  buildTaskRules,
  removeTaskRules,
} from '../network/task-network-rules';
import type { TaskTab, TaskTabPool } from '../tabs/task-tab-pool';
import { leavesTabClean, sameDocument } from '../tabs/tab-reuse';

/**
 * After `load`, how long a page may keep the network busy before we capture anyway. Pages with
 * long polling, analytics beacons or open sockets never reach network idle.
 */
export const NETWORK_IDLE_CAP_MS = 5_000;
/** Kept back from the server's budget so that the result arrives before the server gives up. */
export const RESULT_MARGIN_MS = 300;

const isHtml = (contentType: string | undefined) =>
  contentType === undefined || /^\s*(text\/html|application\/xhtml\+xml)/i.test(contentType);

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
 * Device, language, clock and position of the task, before navigating. The cookie-banner script
 * is the tab's to keep or drop (a pooled tab keeps it across tasks that want it).
 */
async function applyEmulation(cdp: CdpSession, tab: TaskTab, spec: PageTaskSpec): Promise<void> {
  for (const command of emulationCommands(spec, navigator.userAgent)) {
    if (command !== COOKIE_BANNER_SCRIPT) await cdp.send(command.method, command.params);
  }
  await tab.setCookieBannerScript(spec.blockAds !== false);
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

/** Ids of every tab open now. */
async function openTabIds(): Promise<number[]> {
  return (await browser.tabs.query({})).flatMap((tab) => (tab.id === undefined ? [] : [tab.id]));
}

export interface PageTaskRun {
  /** The capture, or the task's error, as soon as it is known. */
  result: Promise<PageCapture>;
  /** Settles after the task cleaned up (tab back in the pool or closed, its rules removed). */
  cleanedUp: Promise<void>;
}

/**
 * Runs one page task in a tab of the pool, with the task's network rules and emulation: waits for
 * load and then network quiet (both bounded by the task's budget), runs the actions, captures. The
 * result is handed over before the clean-up (rules removed; the tab reset and kept, or closed),
 * which runs on success, failure, timeout and cancellation alike.
 */
export function runPageTask(
  task: TaskMessage,
  taskSignal: AbortSignal,
  {
    pool,
    fenceDomains,
  }: {
    pool: TaskTabPool;
    /** A donated browser's allowed domains, which the task's tab may not navigate away from. */
    fenceDomains?: readonly string[] | undefined;
  },
): PageTaskRun {
  let finishCleanup: () => void = () => {};
  const cleanedUp = new Promise<void>((resolve) => (finishCleanup = resolve));
  const deadline = Date.now() + task.timeoutMs - RESULT_MARGIN_MS;
  const result = (async () => {
    let tab: TaskTab | undefined;
    let ruleIds: number[] = [];
    let cdp: BorrowedCdpSession | undefined;
    let succeeded = false;
    /** A PDF's tab is left to Chromium's viewer, whose frame ends the debugger session soon after. */
    let showsPdf = false;
    try {
      checkTaskUrl(task.spec.url, task.spec.networkPolicy);
      await taskJournal.record(task.taskId);
      tab = await pool.acquire(task.spec.networkPolicy);
      const ruleInput = {
        tabId: tab.tabId,
        url: task.spec.url,
        headers: task.spec.headers,
        ...(await taskAdRules(task.spec.blockAds)),
        fenceDomains,
        // A fenced task's popups are fenced too; the person's own tabs stay out of it.
        ...(fenceDomains !== undefined && fenceDomains.length > 0
          ? { personsTabIds: await openTabIds() }
          : {}),
      };
      // Most tasks of a launched browser need no rules of their own: then no DNR call at all.
      if (buildTaskRules({ ruleIds: [0, 0, 0, 0], ...ruleInput }).length > 0) {
        ruleIds = await allocateTaskRuleIds();
        await taskJournal.record(task.taskId, { ruleIds });
        await addTaskRules(buildTaskRules({ ruleIds, ...ruleInput }));
      }
      cdp = borrowCdp(tab.cdp);
      const capture = await captureInTab(task.spec, { deadline, taskSignal, tab, cdp });
      succeeded = true;
      showsPdf = capture.pdfBase64 !== undefined;
      return capture;
    } finally {
      // Not awaited: the result goes out first, the clean-up follows.
      const usedTab = tab;
      const usedRules = ruleIds;
      const clean = leavesTabClean(task.spec) && succeeded && !showsPdf;
      void (async () => {
        cdp?.release();
        await removeTaskRules(usedRules).catch(() => undefined);
        if (usedTab !== undefined) await pool.release(usedTab, { reusable: clean }).catch(() => undefined);
        await taskJournal.remove(task.taskId).catch(() => undefined);
      })().finally(finishCleanup);
    }
  })();
  return { result, cleanedUp };
}

/** The task's work in a tab that has its rules: navigate, wait, act, capture. */
async function captureInTab(
  spec: PageTaskSpec,
  {
    deadline,
    taskSignal,
    tab,
    cdp,
  }: { deadline: number; taskSignal: AbortSignal; tab: TaskTab; cdp: CdpSession },
): Promise<PageCapture> {
  let guard: AddressGuard | undefined;
  try {
    // A pooled tab shows its last task's page: a URL differing from it only by its fragment would
    // be a same-document navigation, with no load to wait for.
    if (sameDocument(tab.mainFrame.url, spec.url)) await tab.blank();
    const mainFrameId = tab.mainFrame.id;
    guard = await createAddressGuard(cdp, { mainFrameId, policy: spec.networkPolicy });
    // Cancelled by the server, or by a refused connection: every wait below ends on either.
    const signal = AbortSignal.any([taskSignal, guard.signal]);
    const watch = createPageWatch(cdp, mainFrameId);
    await applyEmulation(cdp, tab, spec);
    watch.lifecycle.clear();
    // A PDF's bytes come from the tab's own response, held for them until the page has loaded.
    const pdfBodies = await catchPdfBodies(cdp, mainFrameId);

    const navigation = await beforeDeadline(
      cdp.send<{ errorText?: string }>('Page.navigate', { url: spec.url }),
      deadline,
    );
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
    // A page with no script and nothing in flight at `load` is done; others get the quiet wait.
    // With nothing to do after the wait, the same evaluation captures such a page at once.
    const nothingAfter = spec.waitForMs === 0 && (spec.actions === undefined || spec.actions.length === 0);
    let early: InPageCapture | undefined;
    let inert = false;
    if (!watch.busy()) {
      const probe = await beforeDeadline(
        evaluateIsolated(
          cdp,
          mainFrameId,
          nothingAfter
            ? `${callSource(pageIsInert)} ? ${callSource(capturePage)} : null`
            : callSource(pageIsInert),
        ),
        deadline,
      ).catch((err: unknown) => {
        // A page that navigated away under the probe (a meta refresh, a redirecting script) is
        // not settled: the quiet wait below follows it to its next document.
        if (err instanceof PageTaskError) throw err;
        return { value: null };
      });
      inert = nothingAfter ? probe.value !== null : probe.value === true;
      if (nothingAfter && probe.value !== null) early = probe.value as InPageCapture;
    }
    if (!inert) {
      await watch.until(
        () => watch.lifecycle.has('networkIdle') || watch.networkQuiet(),
        Math.min(deadline, Date.now() + NETWORK_IDLE_CAP_MS),
        signal,
      );
    }
    if (spec.waitForMs > 0) {
      await watch.until(() => false, Math.min(deadline, Date.now() + spec.waitForMs), signal);
    }

    const session = cdp;
    const actions =
      spec.actions === undefined || spec.actions.length === 0
        ? undefined
        : await runActions(
            {
              cdp: session,
              frameId: mainFrameId,
              watch,
              deadline,
              signal,
              restoreViewport: () =>
                spec.mobile === true
                  ? session.send('Emulation.setDeviceMetricsOverride', { ...MOBILE_METRICS })
                  : session.send('Emulation.clearDeviceMetricsOverride'),
            },
            spec.actions,
          );

    const page =
      early ??
      ((
        await beforeDeadline(evaluateIsolated(cdp, mainFrameId, callSource(capturePage)), deadline).catch(
          (err: unknown) => {
            if (err instanceof PageTaskError) throw err;
            throw new PageTaskError('BROWSER_ERROR', `capture failed: ${String(err)}`);
          },
        )
      ).value as InPageCapture);
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
      statusCode: response?.status ?? 0,
      contentType,
      rawHtml: body ?? page.rawHtml,
      renderedHtml: page.renderedHtml,
      ...(actions === undefined ? {} : { actions }),
      ...(branding === undefined ? {} : { branding: branding as PageCapture['branding'] }),
    };
  } catch (err) {
    // A refused connection explains whatever failed after it (an aborted wait, a blocked page).
    throw guard?.violation() ?? err;
  }
}
