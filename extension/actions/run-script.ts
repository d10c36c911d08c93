import { ActionError } from './action-error';
import type { CdpSession } from '../debugger/cdp-session';
import { type Evaluated, InPageError, evaluateIsolated } from '../debugger/evaluate-isolated';
import { WITHOUT_WEBRTC } from '../network/no-webrtc-in-worlds';
import { beforeDeadline } from '../task-kit/deadline';

/** A script gets this long, or what is left of the task, whichever is shorter. */
export const SCRIPT_TIMEOUT_MS = 30_000;
/** Largest return value, as JSON characters; the result travels to the server in one frame. */
export const MAX_SCRIPT_RESULT_CHARS = 1024 * 1024;

/**
 * Runs a caller's `executeJavascript` in an isolated world of the page through the debugger, which
 * works on strict-CSP pages (docs/extension.md#caller-scripts). The script may be an expression (`document.title`)
 * or a function body with `return` and `await`; a body is tried when the expression form is a
 * syntax error, which runs nothing, so nothing runs twice. Promises are awaited.
 */
export async function runScript(
  cdp: CdpSession,
  frameId: string,
  script: string,
  deadline: number,
): Promise<Evaluated> {
  const until = Math.min(deadline, Date.now() + SCRIPT_TIMEOUT_MS);
  const run = (expression: string) =>
    beforeDeadline(
      // The world is the caller's: no WebRTC in it (no-webrtc-in-worlds.ts).
      evaluateIsolated(cdp, frameId, WITHOUT_WEBRTC + expression, { awaitPromise: true }),
      until,
    ).catch((err: unknown) => {
      if (Date.now() >= until && deadline > until) {
        throw new ActionError(`script did not finish within ${SCRIPT_TIMEOUT_MS} ms`);
      }
      throw err;
    });
  let result: Evaluated;
  try {
    result = await run(script);
  } catch (err) {
    if (!(err instanceof InPageError && err.message.startsWith('SyntaxError'))) throw err;
    result = await run(`(async () => {\n${script}\n})()`);
  }
  const size = JSON.stringify(result.value ?? null).length;
  if (size > MAX_SCRIPT_RESULT_CHARS) {
    throw new ActionError(
      `script returned ${size} characters of JSON; the limit is ${MAX_SCRIPT_RESULT_CHARS}`,
    );
  }
  return result;
}
