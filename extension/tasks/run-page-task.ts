import { browser } from 'wxt/browser';
import type { PageCapture, TaskMessage } from '../../shared/protocol/messages';
import { taskAdRules } from '../network/standing-ad-block';
import { taskMediaRules } from '../network/media-block';
import { checkTaskUrl } from '../network/task-address-guard';
import {
  addTaskRules,
  allocateTaskRuleIds,
  RULES_PER_TASK,
  buildTaskRules,
  removeTaskRules,
} from '../network/task-network-rules';
import { leavesTabClean } from '../tabs/tab-reuse';
import type { TaskTab, TaskTabPool } from '../tabs/task-tab-pool';
import { capturePlain, debuggerNeed, NotAPage } from './capture-plain';
import { challengeIn, waitForPerson } from './challenge-handoff';
import { waitForOperator, type ChallengeLiveView } from './challenge-live-view';
import { captureWithDebugger, showsPdf } from './capture-with-debugger';
import { loadProfileCookies, readProfileState } from './browser-profile';
import { PageTaskError } from '../task-kit/page-task-error';
import type { StateWitness, WitnessedTask } from '../browser-state/state-witness';
import { taskJournal } from '../task-kit/task-journal';

/** Kept back from the server's budget so that the result arrives before the server gives up. */
export const RESULT_MARGIN_MS = 300;

/** A debugger command failed because Chromium ended the session under it. */
const endedByChromium = (err: unknown) =>
  err instanceof Error && /Detached while handling command|Debugger is not attached/i.test(err.message);

/** Whether the task itself brings something of the team's into the page: then it is never clean. */
const bringsOwnState = (task: TaskMessage) =>
  task.spec.profile !== undefined ||
  (task.spec.actions ?? []).length > 0 ||
  Object.keys(task.spec.headers ?? {}).length > 0;

/** Ids of every tab open now. */
async function openTabIds(): Promise<number[]> {
  return (await browser.tabs.query({})).flatMap((tab) => (tab.id === undefined ? [] : [tab.id]));
}

/**
 * Puts the task's own network rules on its tab (headers, ad block, a donor's domain fence) and
 * returns their ids, journalled so that a worker that dies mid-task has them removed at restart.
 */
export async function addRulesForTask(
  task: TaskMessage,
  tabId: number,
  fenceDomains: readonly string[] | undefined,
): Promise<number[]> {
  const ruleInput = {
    tabId,
    url: task.spec.url,
    headers: task.spec.headers,
    ...(await taskAdRules(task.spec.blockAds)),
    ...(await taskMediaRules(task.spec.skipMedia)),
    fenceDomains,
    // A fenced task's popups are fenced too; the person's own tabs stay out of it.
    ...(fenceDomains !== undefined && fenceDomains.length > 0 ? { personsTabIds: await openTabIds() } : {}),
  };
  // Most tasks of a launched browser need no rules of their own: then no DNR call, no journal.
  const placeholderIds = new Array<number>(RULES_PER_TASK).fill(0);
  if (buildTaskRules({ ruleIds: placeholderIds, ...ruleInput }).length === 0) return [];
  const ruleIds = await allocateTaskRuleIds();
  await taskJournal.record(task.taskId, { ruleIds });
  try {
    await addTaskRules(buildTaskRules({ ruleIds, ...ruleInput }));
  } catch (err) {
    await removeRulesOfTask(task.taskId, ruleIds);
    throw err;
  }
  return ruleIds;
}

/** Removes what addRulesForTask put in place. Never throws. */
export async function removeRulesOfTask(taskId: string, ruleIds: readonly number[]): Promise<void> {
  if (ruleIds.length === 0) return;
  await removeTaskRules([...ruleIds]).catch(() => undefined);
  await taskJournal.remove(taskId).catch(() => undefined);
}

export interface PageTaskRun {
  /** The capture, or the task's error, as soon as it is known. */
  result: Promise<PageCapture>;
  /** Settles after the task cleaned up (tab back in the pool or closed, its rules removed). */
  cleanedUp: Promise<void>;
}

/**
 * Runs one page task in a tab of the pool, with the task's network rules: without the debugger
 * when nothing of the task needs it (capture-plain.ts), with it otherwise or when the document
 * turns out not to be a page (capture-with-debugger.ts). The result is handed over before the
 * clean-up (rules removed; the tab kept, or closed), which runs on success, failure, timeout and
 * cancellation alike.
 */
export function runPageTask(
  task: TaskMessage,
  taskSignal: AbortSignal,
  {
    pool,
    fenceDomains,
    stateWitness,
    askPerson,
    challengeLiveView,
  }: {
    pool: TaskTabPool;
    /**
     * A launched browser's way past a challenge page: when the task allows a wait for it
     * (`challengeWaitMs`), its tab is served to the server's live view while an operator passes
     * the check (challenge-live-view.ts). Ignored when a person is asked instead.
     */
    challengeLiveView?: ChallengeLiveView | undefined;
    /**
     * A donated browser's person, asked to pass a challenge page the task meets (challenge-handoff.ts)
     * when the task allows a wait for it (`challengeWaitMs`); launched browsers have no one to ask.
     */
    askPerson?: { team: string; onAsked?: () => void } | undefined;
    /** A donated browser's allowed domains, which the task's tab may not navigate away from. */
    fenceDomains?: readonly string[] | undefined;
    /**
     * A launched browser's witness of its state (state-witness.ts): with it the capture says
     * whether nothing earlier shaped it (`stateClean`); without it, it says nothing (unknown).
     */
    stateWitness?: StateWitness | undefined;
  },
): PageTaskRun {
  let finishCleanup: () => void = () => {};
  const cleanedUp = new Promise<void>((resolve) => (finishCleanup = resolve));
  const deadline = Date.now() + task.timeoutMs - RESULT_MARGIN_MS;
  const result = (async () => {
    let tab: TaskTab | undefined;
    let ruleIds: number[] = [];
    let reusable = false;
    let witnessed: WitnessedTask | undefined;
    try {
      checkTaskUrl(task.spec.url, task.spec.networkPolicy);
      const { profile } = task.spec;
      // A donated browser holds its owner's logins, which a profile would read and mix with.
      if (profile !== undefined && fenceDomains !== undefined) {
        throw new PageTaskError('TASK_REFUSED', 'a donated browser does not run browser profiles');
      }
      tab = await pool.acquire(task.spec.networkPolicy);
      witnessed = stateWitness?.begin(tab.tabId, task.spec.url);
      if (profile !== undefined) await loadProfileCookies(profile);
      ruleIds = await addRulesForTask(task, tab.tabId, fenceDomains);
      const run = { deadline, taskSignal, tab };
      const captureOnce = () =>
        debuggerNeed(task.spec) === undefined
          ? capturePlain(task.spec, run).catch((err: unknown) => {
              if (!(err instanceof NotAPage)) throw err;
              // The PDF viewer the plain navigation opened may still end a session attached
              // just after it (Chromium detaches it): then once more, on a fresh session.
              return captureWithDebugger(task.spec, run).catch((second: unknown) => {
                if (!endedByChromium(second)) throw second;
                return captureWithDebugger(task.spec, run);
              });
            })
          : captureWithDebugger(task.spec, run);
      let capture = await captureOnce();
      let handed = false;
      // A donated browser's person may pass a challenge the page met; then the page is taken anew,
      // with the cookie the check left (challenge-handoff.ts).
      // A launched browser's operator may, through the live view (challenge-live-view.ts).
      const someoneMayPass =
        (askPerson !== undefined || challengeLiveView !== undefined) && (task.spec.challengeWaitMs ?? 0) > 0;
      const challenge = someoneMayPass ? challengeIn(capture) : undefined;
      if (challenge !== undefined) {
        // The person or operator sees the page whole: a check may be a picture puzzle.
        if (task.spec.skipMedia === true) {
          await removeRulesOfTask(task.taskId, ruleIds);
          ruleIds = await addRulesForTask(
            { ...task, spec: { ...task.spec, skipMedia: false } },
            tab.tabId,
            fenceDomains,
          );
        }
        const passed =
          askPerson !== undefined
            ? await waitForPerson({
                task,
                team: askPerson.team,
                tab,
                challenge,
                deadline,
                signal: taskSignal,
                onAsked: askPerson.onAsked,
              })
            : challengeLiveView !== undefined &&
              (await waitForOperator({
                task,
                tab,
                challenge,
                url: capture.url,
                deadline,
                signal: taskSignal,
                live: challengeLiveView,
              }));
        handed = true;
        if (passed) capture = await captureOnce();
      }
      reusable = leavesTabClean(task.spec) && !showsPdf(capture);
      const clean = witnessed?.finish(capture.url);
      const reported =
        clean === undefined
          ? capture
          : // Someone's hand passed a check in the tab: what it shows is not the pool's to share.
            { ...capture, stateClean: clean && !bringsOwnState(task) && !handed };
      // While the tab still shows the page: its origin's localStorage comes with the jar.
      return profile?.readBack === true
        ? { ...reported, profileState: await readProfileState(tab.tabId) }
        : reported;
    } finally {
      witnessed?.drop();
      // Not awaited: the result goes out first, the clean-up follows.
      const usedTab = tab;
      const usedRules = ruleIds;
      const clean = reusable;
      void (async () => {
        await removeRulesOfTask(task.taskId, usedRules);
        if (usedTab !== undefined) await pool.release(usedTab, { reusable: clean }).catch(() => undefined);
      })().finally(finishCleanup);
    }
  })();
  return { result, cleanedUp };
}
