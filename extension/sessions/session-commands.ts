import { donationRefusal } from '../../shared/donation/donation-refusal';
import type { PageTaskSpec, SessionCommand } from '../../shared/protocol/messages';
import { runActions } from '../actions/run-actions';
import type { CdpSession } from '../debugger/cdp-session';
import { MOBILE_METRICS } from '../debugger/emulation-commands';
import { callSource, evaluateIsolated } from '../debugger/evaluate-isolated';
import type { PageWatch } from '../debugger/page-watch';
import { readDonationSettings } from '../hub/donation-settings';
import type { AddressGuard } from '../network/task-address-guard';
import { checkTaskUrl } from '../network/task-address-guard';
import { beforeDeadline } from '../task-kit/deadline';
import { PageTaskError, navigationError } from '../task-kit/page-task-error';
import { evaluateInSession } from './session-evaluate';

/** The commands a session's own code serves; the live view's kinds go to live-commands.ts. */
export type PageCommand = Extract<SessionCommand, { kind: 'evaluate' | 'actions' | 'navigate' | 'snapshot' }>;

export const isPageCommand = (command: SessionCommand): command is PageCommand =>
  command.kind === 'evaluate' ||
  command.kind === 'actions' ||
  command.kind === 'navigate' ||
  command.kind === 'snapshot';

/** What a session's commands work on: its tab's debugger session, kept for the whole session. */
export interface SessionPage {
  cdp: CdpSession;
  mainFrameId(): string;
  currentUrl(): string;
  watch: PageWatch;
  guard: AddressGuard;
  spec: PageTaskSpec;
  /** Ends every wait of the session (cancelled, or a refused connection). */
  signal: AbortSignal;
  /** A donated browser's session: every command is checked against its owner's terms first. */
  donated: boolean;
}

/** After code ran, how long a navigation it started (`location.href = …`) has to begin. */
const NAVIGATION_START_GRACE_MS = 150;
/** Cap on waiting for such a navigation, or one in flight before a command, to load. */
const NAVIGATION_SETTLE_CAP_MS = 15_000;

/** Lets a navigation in flight finish loading, so that the next command sees its page. */
async function settleNavigation(page: SessionPage, deadline: number, { grace }: { grace: boolean }) {
  if (grace)
    await page.watch.until(
      () => false,
      Math.min(deadline, Date.now() + NAVIGATION_START_GRACE_MS),
      page.signal,
    );
  await page.watch.until(
    () => !page.watch.loading(),
    Math.min(deadline, Date.now() + NAVIGATION_SETTLE_CAP_MS),
    page.signal,
  );
}

/** Runs in the page. */
function pageSnapshot(): { url: string; title: string; html: string } {
  const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>\n` : '';
  return { url: location.href, title: document.title, html: doctype + document.documentElement.outerHTML };
}

/** Why the owner of a donated browser does not allow the command now; undefined when they do. */
async function donorRefusal(page: SessionPage, command: PageCommand): Promise<string | undefined> {
  if (!page.donated) return undefined;
  const terms = await readDonationSettings();
  switch (command.kind) {
    case 'evaluate':
      if (!terms.enabled) return 'the donated browser is paused by its owner';
      return terms.allowJavascript
        ? undefined
        : "code cannot run on this team's donated browser; its owner has not allowed scripts";
    case 'actions':
      return donationRefusal(terms, { url: page.currentUrl(), actions: command.actions });
    case 'navigate':
      return donationRefusal(terms, { url: command.url });
    case 'snapshot':
      return terms.enabled ? undefined : 'the donated browser is paused by its owner';
  }
}

/** Sends the tab to `url` and waits for its `load` (or the command's time). */
async function navigate(page: SessionPage, url: string, deadline: number) {
  checkTaskUrl(url, page.spec.networkPolicy);
  page.watch.lifecycle.clear();
  const navigation = await beforeDeadline(
    page.cdp.send<{ errorText?: string }>('Page.navigate', { url }),
    deadline,
  );
  if (navigation.errorText) throw navigationError(navigation.errorText);
  const loaded = await page.watch.until(() => page.watch.lifecycle.has('load'), deadline, page.signal);
  if (!loaded) throw new PageTaskError('SCRAPE_TIMEOUT', `the page did not load within the command's time`);
  return { url: page.currentUrl(), statusCode: page.watch.response()?.status ?? 0 };
}

/**
 * Runs one of a session's page commands and returns its result (SessionResult[kind]). Failures
 * are PageTaskErrors: refused by a donor (TASK_REFUSED), the caller's code or actions failing
 * (SCRAPE_ACTION_ERROR with the page's message), out of time (SCRAPE_TIMEOUT), a refused address
 * (URL_BLOCKED).
 */
export async function runPageCommand(page: SessionPage, command: PageCommand): Promise<unknown> {
  const refusal = await donorRefusal(page, command);
  if (refusal !== undefined) throw new PageTaskError('TASK_REFUSED', refusal);
  page.guard.assertClean();
  const deadline = Date.now() + ('timeoutMs' in command ? command.timeoutMs : NAVIGATION_SETTLE_CAP_MS);
  // A page still loading (code of the last command sent the tab somewhere) is waited for.
  await settleNavigation(page, deadline, { grace: false });
  const frameId = page.mainFrameId();
  let result: unknown;
  switch (command.kind) {
    case 'evaluate':
      result = await evaluateInSession(page.cdp, frameId, command.code, command.timeoutMs).catch(
        (err: unknown) => {
          if (err instanceof PageTaskError) throw err;
          throw new PageTaskError('SCRAPE_ACTION_ERROR', err instanceof Error ? err.message : String(err));
        },
      );
      await settleNavigation(page, deadline + NAVIGATION_SETTLE_CAP_MS, { grace: true });
      break;
    case 'actions':
      result = await runActions(
        {
          cdp: page.cdp,
          frameId,
          watch: page.watch,
          deadline: Date.now() + command.timeoutMs,
          signal: page.signal,
          restoreViewport: () =>
            page.spec.mobile === true
              ? page.cdp.send('Emulation.setDeviceMetricsOverride', { ...MOBILE_METRICS })
              : page.cdp.send('Emulation.clearDeviceMetricsOverride'),
        },
        command.actions,
      );
      break;
    case 'navigate':
      result = await navigate(page, command.url, Date.now() + command.timeoutMs);
      break;
    case 'snapshot':
      result = (await evaluateIsolated(page.cdp, frameId, callSource(pageSnapshot))).value;
      break;
  }
  // A connection the URL policy refuses, made while the command ran, fails it.
  page.guard.assertClean();
  return result;
}
