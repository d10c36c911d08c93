import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { BrowserClass, PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import { type DonatedRoute, type RunOptions, TaskError, donatedRouteUnavailable } from '../../browsers/hub';
import { errors } from '../../platform/errors';
import { urlForLog, type Log } from '../../platform/log';
import type { UrlPolicy } from '../../platform/url-policy';
import type { PageDerivation, PageDeriveOptions } from '../derive';
import type { BrowserProfileUse } from './browser-profile-use';
import { mayShareBrowserCapture } from './cache-policy';
import type { CaptureSource } from './cached-capture';
import type { HttpFastPath } from './fast-path/create-http-fast-path';
import { fastPathEligible } from './fast-path/fast-path-eligible';
import { blockOf, blockedPageError, worthAnotherBrowser } from './block-pages/capture-block';
import { enhancedClass, runWithProxy } from './run-with-proxy';
import { taskErrorToApiError } from './task-error-to-api-error';
import { taskSpecFromRequest } from './task-spec-from-request';
import type { PageChallengeHandler, TaskChallengeSignals } from '../types';
import { watchChallenges } from './challenge-watch';

/** What taking a fresh capture reads of the scrape plan (scrape-plan.ts). */
export interface FreshCapturePlan {
  readonly request: ScrapeRequestV2;
  readonly teamId: string;
  readonly scrapeId: string | undefined;
  readonly target: URL;
  /** Only one of the team's donated browsers takes the URL: no anonymous fetch, no pool browser. */
  readonly donated: boolean;
  /** That browser and its state, when `donated` (or a revoked one that used to take the URL). */
  readonly donatedRoute: DonatedRoute | undefined;
  /** Skip the HTTP fast path (types/scraper.ts ScrapeContext). */
  readonly browserOnly: boolean;
  /** The request's timeout plus the time its wait actions ask for (docs/wire-contract.md §3.4). */
  readonly timeoutMs: number;
  /** The formats to derive: the fast path derives them with its capture. */
  readonly deriveOptions: PageDeriveOptions;
  /** Who may pass a challenge page a launched browser meets (types/scraper.ts ScrapeContext). */
  readonly onChallenge?: PageChallengeHandler | undefined;
}

export interface FreshCaptureDeps {
  /** The page tasks of this scrape's admission (admit/job-page-tasks.ts for job pages). */
  runTask(spec: PageTaskSpec, options: RunOptions): Promise<PageCapture>;
  /** Pages that need no browser over HTTP (HTTP_FAST_PATH); without it every page takes a browser. */
  fastPath?: HttpFastPath | undefined;
  /** Connected browsers of a class, for `proxy` routing. */
  connectedBrowsers?: ((browserClass: BrowserClass) => number) | undefined;
  /** The server's network policy travels with the task, for the browser to enforce. */
  networkPolicy: UrlPolicy['networkPolicy'];
  /**
   * A page for the team's donated browser waits for it while it is offline or paused, up to the
   * page's timeout (a job's page); otherwise the caller is told at once.
   */
  waitsForDonatedBrowser?: boolean | undefined;
  /**
   * How long a donated browser waits for its person to pass a challenge page (CHALLENGE_WAIT_MS),
   * and a launched one for an operator when the scrape's caller has one (`onChallenge`).
   */
  challengeWaitMs?: number | undefined;
  /** The browsers' challenge events; without them no launched browser waits on a challenge. */
  taskChallenges?: TaskChallengeSignals | undefined;
  log: Log;
}

/** A capture the HTTP fast path took, with the formats it derived from it. */
export interface FastCapture {
  capture: PageCapture;
  derived: PageDerivation;
}

/**
 * A fresh capture of the page: over HTTP when the fast path may take it and the page does not
 * look blocked, otherwise a page task on a browser (with the `proxy` routing and, for `auto`, its
 * stealth retry), on the profile's isolated browser for a profile scrape.
 */
export async function freshCapture(
  plan: FreshCapturePlan,
  deps: FreshCaptureDeps,
  profile: BrowserProfileUse | undefined,
): Promise<{ capture: PageCapture; source: CaptureSource; fast?: FastCapture }> {
  const { fastPath, connectedBrowsers, networkPolicy, challengeWaitMs, taskChallenges, log } = deps;
  const { request, target, teamId, scrapeId, timeoutMs } = plan;
  if (plan.donated && plan.donatedRoute !== undefined) {
    const capture = await donatedCapture(plan, plan.donatedRoute, deps);
    refuseBlockPage(capture, plan, log);
    return { capture, source: { scope: 'team' } };
  }
  const startedAt = Date.now();
  const tried =
    fastPath !== undefined &&
    !plan.browserOnly &&
    !plan.donated &&
    // `enhanced` with a stealth browser connected means that browser, not a plain fetch.
    (request.proxy !== 'enhanced' || enhancedClass(connectedBrowsers ?? (() => 0)) === 'basic') &&
    fastPathEligible(request);
  const fetched = tried ? await fastPath.capture(target, timeoutMs, plan.deriveOptions) : undefined;
  // A page that looks blocked gets the browser (and, with proxy auto, its stealth retry).
  if (fetched !== undefined && !worthAnotherBrowser(fetched.capture)) {
    const capture = { ...fetched.capture, browserClass: 'basic' as const };
    return { capture, source: { scope: 'public' }, fast: { capture, derived: fetched.derived } };
  }
  // An operator told of a challenge page (a job's webhook) may pass it in the live view meanwhile.
  const runTask =
    plan.onChallenge !== undefined && taskChallenges !== undefined && (challengeWaitMs ?? 0) > 0
      ? watchChallenges(deps.runTask, {
          signals: taskChallenges,
          onChallenge: plan.onChallenge,
          waitMs: challengeWaitMs ?? 0,
          teamId,
        })
      : deps.runTask;
  const ran = await runWithProxy(
    { runTask: profile === undefined ? runTask : profile.isolate(runTask), connectedBrowsers },
    { ...taskSpecFromRequest(request, target, profile?.task), networkPolicy },
    {
      // The browser gets what the HTTP attempt (if any) left of the budget.
      timeoutMs: tried ? Math.max(1, timeoutMs - (Date.now() - startedAt)) : timeoutMs,
      proxy: request.proxy,
      teamId,
    },
  ).catch((err: unknown) => {
    const failure = taskErrorToApiError(err, target);
    log.warn('browser task failed', {
      teamId,
      ...(scrapeId === undefined ? {} : { scrapeId }),
      url: urlForLog(target.href),
      code: (err as TaskError).code,
      error: failure.message,
    });
    throw failure;
  });
  refuseBlockPage(ran, plan, log);
  const fresh = profile === undefined ? ran : await profile.keep(ran);
  // Shared only when nothing of the team shaped it: not its node, not a donated browser, nothing
  // left in the pool browser by the team's earlier work.
  return {
    capture: fresh,
    source: mayShareBrowserCapture(request, fresh) ? { scope: 'public' } : { scope: 'team' },
  };
}

/**
 * The page from the team's donated browser, the only one that may take it (RunOptions.donatedOnly):
 * the caller's `proxy` does not apply (no stealth retry on the pool), and the capture is the
 * team's alone. A browser that is offline or paused is said at once to a caller who waits, or
 * waited for up to the page's timeout by a job's page; either way, the error names it.
 */
async function donatedCapture(
  plan: FreshCapturePlan,
  route: DonatedRoute,
  { runTask, networkPolicy, waitsForDonatedBrowser = false, challengeWaitMs, log }: FreshCaptureDeps,
): Promise<PageCapture> {
  const { request, target, teamId, scrapeId, timeoutMs } = plan;
  const away = route.state === 'offline' || route.state === 'paused';
  if (away && !waitsForDonatedBrowser) {
    throw errors.donatedBrowserUnavailable(donatedRouteUnavailable(route, target.hostname));
  }
  try {
    const capture = await runTask(
      {
        ...taskSpecFromRequest(request, target),
        networkPolicy,
        // Its person may pass a challenge the page meets (docs/donated-browsers.md).
        ...(challengeWaitMs === undefined || challengeWaitMs === 0 ? {} : { challengeWaitMs }),
      },
      { timeoutMs, browserClass: 'basic', teamId, donatedOnly: true },
    );
    return { ...capture, browserClass: 'basic' };
  } catch (err) {
    const failure =
      err instanceof TaskError && err.code === 'DONATED_BROWSER_UNAVAILABLE'
        ? errors.donatedBrowserUnavailable(donatedRouteUnavailable(route, target.hostname))
        : taskErrorToApiError(err, target);
    log.warn('donated browser task failed', {
      teamId,
      ...(scrapeId === undefined ? {} : { scrapeId }),
      url: urlForLog(target.href),
      browserId: route.browser.id,
      code: err instanceof TaskError ? err.code : undefined,
      error: failure.message,
    });
    throw failure;
  }
}

/**
 * A block page is never the page (docs/browser-control.md#blocked-pages-and-challenges): the
 * scrape fails, so nothing is cached, billed or counted as a crawled page.
 */
function refuseBlockPage(
  capture: PageCapture,
  { target, teamId, scrapeId }: FreshCapturePlan,
  log: Log,
): void {
  const block = blockOf(capture);
  if (block === undefined) return;
  log.warn('page blocked', {
    teamId,
    ...(scrapeId === undefined ? {} : { scrapeId }),
    url: urlForLog(target.href),
    blockedBy: block.vendor,
    kind: block.kind,
    evidence: block.evidence,
    statusCode: capture.statusCode,
  });
  throw blockedPageError(block, target);
}
