import type { Action } from '../../shared/api/v2/actions';
import { MAX_ARTIFACT_CHARS, type ActionOutputs } from '../../shared/protocol/messages';
import { ActionError } from './action-error';
import type { CdpSession } from '../debugger/cdp-session';
import { callSource, evaluateIsolated } from '../debugger/evaluate-isolated';
import { click, press, scroll, selectorPresent, write } from './page-input';
import { PageTaskError } from '../task-kit/page-task-error';
import type { PageWatch } from '../debugger/page-watch';
import { printPdf } from '../debugger/print-pdf';
import { runScript } from './run-script';
import { takeScreenshot } from '../debugger/take-screenshot';
import { capturePage } from '../page/capture-page';
import { ACTION_SETTLE_CAP_MS, actionSettle } from '../task-kit/settle-policy';

/** A selector wait gives up after this long (or at the task's deadline, if sooner). */
export const SELECTOR_WAIT_MS = 30_000;
const SELECTOR_POLL_MS = 100;
/** After input, how long a navigation it caused has to start before we stop looking for one. */
const NAVIGATION_START_GRACE_MS = 150;
/** Cap on waiting for a navigation that input started; slow pages are captured as they are. */
const NAVIGATION_SETTLE_CAP_MS = 10_000;

export interface ActionContext {
  cdp: CdpSession;
  frameId: string;
  watch: PageWatch;
  deadline: number;
  signal: AbortSignal;
  /** Puts back the task's own viewport after a screenshot laid the page out at another size. */
  restoreViewport(): Promise<void>;
}

/** Runs in the page. */
function snapshot(): { url: string; html: string } {
  const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>\n` : '';
  return { url: location.href, html: doctype + document.documentElement.outerHTML };
}

const sleep = (ctx: ActionContext, ms: number) =>
  ctx.watch.until(() => false, Math.min(ctx.deadline, Date.now() + ms), ctx.signal);

/**
 * Lets the page answer an action before the next one, as it would for a person: a navigation the
 * input started finishes loading (`mayNavigate`: clicks and key presses), the page draws a frame
 * and its DOM rests (a scroll-driven list appends its next items, a "load more" button its page),
 * and what it fetched for that arrives. Each wait is capped: a ticking page never rests.
 */
async function settle(ctx: ActionContext, { mayNavigate }: { mayNavigate: boolean }): Promise<void> {
  if (mayNavigate) {
    await sleep(ctx, NAVIGATION_START_GRACE_MS);
    await ctx.watch.until(
      () => !ctx.watch.loading(),
      Math.min(ctx.deadline, Date.now() + NAVIGATION_SETTLE_CAP_MS),
      ctx.signal,
    );
  }
  const cap = Math.min(ctx.deadline, Date.now() + ACTION_SETTLE_CAP_MS);
  await evaluateIsolated(
    ctx.cdp,
    ctx.frameId,
    callSource(capturePage, { settle: actionSettle(ctx.deadline), capture: false }),
    { awaitPromise: true },
  ).catch(() => undefined);
  await ctx.watch.until(() => !ctx.watch.busy(), cap, ctx.signal);
}

async function waitForSelector(ctx: ActionContext, selector: string): Promise<void> {
  const until = Math.min(ctx.deadline, Date.now() + SELECTOR_WAIT_MS);
  while (!(await selectorPresent(ctx.cdp, ctx.frameId, selector))) {
    if (Date.now() >= until) {
      if (until === ctx.deadline) throw new PageTaskError('SCRAPE_TIMEOUT', 'Scrape timed out');
      throw new ActionError(`no element matched ${selector} within ${SELECTOR_WAIT_MS} ms`);
    }
    await sleep(ctx, SELECTOR_POLL_MS);
  }
}

async function runAction(ctx: ActionContext, action: Action, outputs: ActionOutputs): Promise<void> {
  const { cdp, frameId } = ctx;
  switch (action.type) {
    case 'wait':
      if (action.selector !== undefined) await waitForSelector(ctx, action.selector);
      else await sleep(ctx, action.milliseconds ?? 0);
      return;
    case 'click':
      await click(cdp, frameId, action.selector, action.all);
      return settle(ctx, { mayNavigate: true });
    case 'write':
      await write(cdp, action.text);
      return settle(ctx, { mayNavigate: false });
    case 'press':
      await press(cdp, action.key);
      return settle(ctx, { mayNavigate: true });
    case 'scroll':
      await scroll(cdp, frameId, action.direction, action.selector);
      return settle(ctx, { mayNavigate: false });
    case 'screenshot':
      outputs.screenshots.push(await takeScreenshot(cdp, action, ctx.restoreViewport));
      return;
    case 'scrape':
      outputs.scrapes.push((await evaluateIsolated(cdp, frameId, callSource(snapshot))).value as never);
      return;
    case 'executeJavascript': {
      const { type, value } = await runScript(cdp, frameId, action.script, ctx.deadline);
      outputs.javascriptReturns.push({ type, value: value ?? null });
      return;
    }
    case 'pdf':
      outputs.pdfs.push(await printPdf(cdp, action));
      return;
  }
}

const artifactChars = (outputs: ActionOutputs) =>
  [...outputs.screenshots, ...outputs.pdfs].reduce((sum, item) => sum + item.length, 0);

/**
 * Runs the caller's actions in order. A failing action stops the task with SCRAPE_ACTION_ERROR,
 * naming the action by its index and type; timeouts and cancellation pass through as they are.
 */
export async function runActions(ctx: ActionContext, actions: readonly Action[]): Promise<ActionOutputs> {
  const outputs: ActionOutputs = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] };
  for (const [index, action] of actions.entries()) {
    if (ctx.signal.aborted) throw new PageTaskError('TASK_CANCELLED', 'cancelled');
    try {
      await runAction(ctx, action, outputs);
      if (artifactChars(outputs) > MAX_ARTIFACT_CHARS) {
        throw new ActionError(`screenshots and PDFs exceed ${MAX_ARTIFACT_CHARS} characters of base64`);
      }
    } catch (err) {
      if (err instanceof PageTaskError) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      throw new PageTaskError('SCRAPE_ACTION_ERROR', `actions[${index}] (${action.type}) failed: ${reason}`);
    }
  }
  return outputs;
}
