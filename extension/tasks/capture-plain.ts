import { browser } from 'wxt/browser';
import type { PageCapture, PageTaskSpec } from '../../shared/protocol/messages';
import { createAddressGuard } from '../network/task-address-guard';
import { captureBranding } from '../page/capture-branding';
import { CONTENT_PANELS } from '../../shared/html/content-panels';
import { capturePage, type CaptureOptions, type InPageCapture } from '../page/capture-page';
import { cookieBannerCss } from '../page/cookie-banners';
import { sameDocument } from '../tabs/tab-reuse';
import { watchTabTraffic, type TabTraffic } from '../tabs/tab-traffic';
import type { TaskTab } from '../tabs/task-tab-pool';
import { hasProfileStorage } from './browser-profile';
import { beforeDeadline } from '../task-kit/deadline';
import { isHtml } from './document-types';
import { PageTaskError, navigationError } from '../task-kit/page-task-error';
import { captureSettle, SETTLE_CAP_MS } from '../task-kit/settle-policy';

/**
 * What only the debugger can do for a task, or undefined when it can run without it: emulation
 * and actions are CDP's, and so is telling a certificate Chromium let through (launched browsers
 * accept every certificate; only the debugger sees that it was invalid).
 */
export function debuggerNeed(spec: PageTaskSpec): string | undefined {
  if (spec.actions !== undefined && spec.actions.length > 0) return 'actions';
  if (spec.mobile === true) return 'mobile emulation';
  if (spec.location !== undefined) return 'location emulation';
  if (spec.skipTlsVerification === false) return 'certificate verification';
  // localStorage must be in place before the page's first script runs (browser-profile.ts).
  if (hasProfileStorage(spec.profile)) return 'profile storage';
  return undefined;
}

/** The document is not a page (a PDF, JSON, text, a download): the debugger reads its bytes. */
export class NotAPage extends Error {
  constructor(contentType: string | undefined) {
    super(`the document is ${contentType ?? 'not HTML'}`);
    this.name = 'NotAPage';
  }
}

/** How long about:blank may take to show before a same-document URL is loaded anyway. */
const BLANK_TIMEOUT_MS = 3_000;
/** A request ending this soon after the DOM's last change is taken as the cause of that change. */
const ACTIVITY_SLACK_MS = 20;

/** Runs the in-page capture in the tab's main frame (an isolated world: the page cannot see it). */
async function captureInTab(tabId: number, options: CaptureOptions): Promise<InPageCapture | undefined> {
  const [injection] = await browser.scripting.executeScript({
    target: { tabId },
    func: capturePage,
    args: [options],
  });
  const capture = injection?.result as InPageCapture | null | undefined;
  return capture ?? undefined;
}

/** Navigates the tab and waits for its next document to commit (or for a reason it will not). */
async function navigate(
  tab: TaskTab,
  url: string,
  traffic: TabTraffic,
  { deadline, signal }: { deadline: number; signal: AbortSignal },
): Promise<void> {
  const commits = traffic.commits();
  const earlier = traffic.response();
  await browser.tabs.update(tab.tabId, { url });
  tab.url = url;
  const notAPage = () => {
    const response = traffic.response();
    return response !== undefined && response !== earlier && !isHtml(response.contentType)
      ? response
      : undefined;
  };
  // The about:blank a repeated URL goes through may commit twice (its initial empty document,
  // then the navigation): a page's commit is one of something else.
  const committed = () =>
    traffic.commits() > commits && (url === 'about:blank' || traffic.committedUrl() !== 'about:blank');
  const ended = await traffic.until(
    () => committed() || traffic.failure() !== undefined || notAPage() !== undefined,
    deadline,
    signal,
  );
  const failure = traffic.failure();
  if (failure !== undefined) throw navigationError(failure);
  const other = notAPage();
  if (other !== undefined) throw new NotAPage(other.contentType);
  if (!ended) throw new PageTaskError('SCRAPE_TIMEOUT', 'Scrape timed out');
}

/**
 * A task without the debugger: the tab is sent to the URL (tabs.update) and, once it has fired
 * `load`, one script in an isolated world lets the page settle and captures it
 * (scripting.executeScript).
 * webRequest and webNavigation events, which cost the browser no calls, give the document's
 * status, follow the requests in flight, and hand every peer address to the URL policy's guard.
 * Two extension API calls for a plain page; a document that is not a page throws NotAPage for
 * the debugger to take over.
 */
export async function capturePlain(
  spec: PageTaskSpec,
  { deadline, taskSignal, tab }: { deadline: number; taskSignal: AbortSignal; tab: TaskTab },
): Promise<PageCapture> {
  const taskStarted = Date.now();
  const guard = await createAddressGuard(spec.networkPolicy);
  const traffic = await watchTabTraffic(tab.tabId, guard);
  // Cancelled by the server, or by a refused connection: every wait below ends on either.
  const signal = AbortSignal.any([taskSignal, guard.signal]);
  try {
    // A URL differing from the tab's page only by its fragment would not load a new document.
    if (sameDocument(tab.url, spec.url)) {
      await navigate(tab, 'about:blank', traffic, {
        deadline: Math.min(deadline, Date.now() + BLANK_TIMEOUT_MS),
        signal,
      }).catch((err: unknown) => {
        if (err instanceof PageTaskError && err.code === 'TASK_CANCELLED') throw err;
      });
    }
    await navigate(tab, spec.url, traffic, { deadline, signal });
    const committedAt = Date.now();
    const bannerCss = spec.blockAds === false ? undefined : cookieBannerCss();
    const settleUntil = Math.min(deadline, Date.now() + SETTLE_CAP_MS + spec.waitForMs);
    let page: InPageCapture | undefined;
    // The caller's waitFor once, not again when a capture is taken anew.
    let extraWaitMs = spec.waitForMs;
    for (;;) {
      const commits = traffic.commits();
      // `load` first: the injected script holds the load event while it runs (capture-page.ts).
      const loaded = await traffic.until(
        () => traffic.loaded() || traffic.failure() !== undefined || traffic.commits() > commits,
        deadline,
        signal,
      );
      const failed = traffic.failure();
      if (failed !== undefined) throw navigationError(failed);
      if (!loaded) throw new PageTaskError('SCRAPE_TIMEOUT', 'Scrape timed out');
      // Another document came meanwhile (a redirecting script): wait for its `load` instead.
      if (traffic.commits() > commits) continue;
      page = await beforeDeadline(
        captureInTab(tab.tabId, {
          settle: captureSettle(deadline, extraWaitMs),
          bannerCss,
          contentPanels: CONTENT_PANELS,
        }),
        deadline,
      ).catch((err: unknown) => {
        if (err instanceof PageTaskError) throw err;
        const message = err instanceof Error ? err.message : String(err);
        // The page went somewhere no extension may read (another extension's page, the browser's).
        if (/cannot access|cannot be scripted/i.test(message)) {
          const failed = traffic.failure();
          throw failed === undefined
            ? new PageTaskError(
                'SCRAPE_SITE_ERROR',
                `the page went to a document that cannot be read (${message})`,
              )
            : navigationError(failed);
        }
        // The document went away under the script (a redirecting script, a meta refresh).
        return undefined;
      });
      guard.assertClean();
      if (page === undefined || traffic.commits() > commits) {
        // Follow the page to its next document, and settle there, unless it failed to load.
        const moved = await traffic.until(
          () => traffic.commits() > commits || traffic.failure() !== undefined,
          deadline,
          signal,
        );
        const failure = traffic.failure();
        if (failure !== undefined) throw navigationError(failure);
        if (!moved) throw new PageTaskError('SCRAPE_TIMEOUT', 'Scrape timed out');
        continue;
      }
      extraWaitMs = 0;
      // A request the page started is still out, or ended after the DOM last changed: its content
      // may not be in the capture yet. Wait for the network, then settle and capture once more.
      const stale =
        traffic.inFlight() > 0 || traffic.lastActivityAt() > (page.quietSince ?? 0) + ACTIVITY_SLACK_MS;
      if (!stale || page.settledBy === 'inert' || Date.now() >= settleUntil) break;
      await traffic.until(() => traffic.inFlight() === 0, settleUntil, signal);
      if (Date.now() >= settleUntil) break;
    }
    const capturedAt = Date.now();
    const captureMs = page.captureMs ?? 0;
    const branding =
      spec.branding === true
        ? (
            await beforeDeadline(
              browser.scripting.executeScript({ target: { tabId: tab.tabId }, func: captureBranding }),
              deadline,
            )
          )[0]?.result
        : undefined;
    // Last, so that a refused connection made while the page ran cannot leave with the capture.
    guard.assertClean();
    const response = traffic.response();
    tab.url = page.url;
    return {
      url: page.url,
      statusCode: response?.status ?? page.responseStatus ?? 0,
      contentType: response?.contentType ?? page.documentContentType,
      rawHtml: page.rawHtml,
      renderedHtml: page.renderedHtml,
      ...(response === undefined || Object.keys(response.blockSignals).length === 0
        ? {}
        : { responseHeaders: response.blockSignals }),
      timings: {
        navigateMs: committedAt - taskStarted,
        settleMs: Math.max(0, capturedAt - committedAt - captureMs),
        captureMs,
        finishedAt: Date.now(),
      },
      ...(branding === undefined || branding === null
        ? {}
        : { branding: branding as PageCapture['branding'] }),
    };
  } catch (err) {
    if (err instanceof NotAPage && guard.violation() === undefined) {
      // Chromium's PDF viewer ends a debugger session attached while it shows: leave it first.
      await navigate(tab, 'about:blank', traffic, {
        deadline: Math.min(deadline, Date.now() + BLANK_TIMEOUT_MS),
        signal,
      }).catch(() => undefined);
    }
    // A refused connection explains whatever failed after it (an aborted wait, a blocked page).
    throw guard.violation() ?? err;
  } finally {
    traffic.stop();
  }
}
