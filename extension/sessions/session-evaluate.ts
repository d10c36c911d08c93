import type { CdpSession } from '../debugger/cdp-session';
import { InPageError } from '../debugger/evaluate-isolated';
import { WITHOUT_WEBRTC } from '../network/no-webrtc-in-worlds';
import { beforeDeadline } from '../task-kit/deadline';
import { PageTaskError } from '../task-kit/page-task-error';

/** Largest value an evaluate returns, as JSON characters; the reply travels in one frame. */
export const MAX_EVALUATE_RESULT_CHARS = 8 * 1024 * 1024;

export interface ConsoleLine {
  stream: 'stdout' | 'stderr';
  text: string;
}

export interface SessionEvaluation {
  type: string;
  value: unknown;
  logs: ConsoleLine[];
}

interface RemoteResult {
  result: { type: string; value?: unknown };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

/**
 * Runs in the session's world before the caller's code: its `console` writes into a list the
 * extension reads afterwards (the world is the code's own, so the page's console is untouched).
 * Bounded, since a loop that logs would otherwise fill the reply.
 */
function captureConsole(maxChars: number): void {
  const lines: Array<{ stream: string; text: string }> = [];
  let used = 0;
  const show = (value: unknown): string => {
    if (typeof value === 'string') return value;
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  };
  const writer =
    (stream: string) =>
    (...args: unknown[]) => {
      if (used > maxChars) return;
      const text = args.map(show).join(' ');
      used += text.length;
      lines.push({ stream, text: used > maxChars ? `${text.slice(0, 1000)} […console output cut]` : text });
    };
  const target = globalThis as unknown as { console: Record<string, unknown>; __tabhiveLogs: unknown };
  target.__tabhiveLogs = lines;
  for (const name of ['log', 'info', 'debug', 'trace']) target.console[name] = writer('stdout');
  for (const name of ['error', 'warn']) target.console[name] = writer('stderr');
}

const CONSOLE_CAP_CHARS = 1024 * 1024;

/**
 * Evaluates a session's code in an isolated world of the main frame, as a scrape's
 * executeJavascript does (docs/extension.md#caller-scripts: the page's CSP does not apply, its globals are not
 * shared): an expression's value, or a function body's `return`, awaited. Console output comes
 * back apart from the value. `Runtime.evaluate`'s own timeout stops synchronous code that runs
 * too long (an endless loop would otherwise hold the renderer); waiting for a promise stops at
 * the same time.
 */
export async function evaluateInSession(
  cdp: CdpSession,
  frameId: string,
  code: string,
  timeoutMs: number,
): Promise<SessionEvaluation> {
  const until = Date.now() + timeoutMs;
  const { executionContextId } = await cdp.send<{ executionContextId: number }>('Page.createIsolatedWorld', {
    frameId,
    worldName: 'tabhive-session',
  });
  const evaluate = (expression: string, awaitPromise: boolean) =>
    beforeDeadline(
      cdp.send<RemoteResult>('Runtime.evaluate', {
        expression,
        contextId: executionContextId,
        returnByValue: true,
        awaitPromise,
        timeout: Math.max(1, until - Date.now()),
      }),
      until,
    ).catch((err: unknown) => {
      if (err instanceof PageTaskError && err.code === 'SCRAPE_TIMEOUT') {
        throw new PageTaskError('SCRAPE_TIMEOUT', `the code did not finish within ${timeoutMs} ms`);
      }
      throw err;
    });
  const run = async (expression: string) => {
    const evaluation = await evaluate(expression, true);
    if (evaluation.exceptionDetails !== undefined) {
      const details = evaluation.exceptionDetails;
      const message = details.exception?.description?.split('\n')[0] ?? details.text;
      // Runtime.evaluate's timeout ends the script with this exception.
      if (/Execution was terminated/i.test(message)) {
        throw new PageTaskError('SCRAPE_TIMEOUT', `the code did not finish within ${timeoutMs} ms`);
      }
      throw new InPageError(message);
    }
    return evaluation.result;
  };
  await evaluate(`(${captureConsole.toString()})(${CONSOLE_CAP_CHARS})`, false);
  // The world is the caller's: no WebRTC in it (no-webrtc-in-worlds.ts).
  await evaluate(WITHOUT_WEBRTC, false);
  let result: RemoteResult['result'];
  try {
    result = await run(code);
  } catch (err) {
    // Statements with `return` or top-level `await` are no expression: run them as a function
    // body. A syntax error ran nothing, so nothing runs twice.
    if (!(err instanceof InPageError && err.message.startsWith('SyntaxError'))) throw err;
    result = await run(`(async () => {\n${code}\n})()`);
  }
  const logs = await evaluate('globalThis.__tabhiveLogs', false).then(
    (read) => (Array.isArray(read.result.value) ? (read.result.value as ConsoleLine[]) : []),
    () => [],
  );
  const size = JSON.stringify(result.value ?? null).length;
  if (size > MAX_EVALUATE_RESULT_CHARS) {
    throw new InPageError(
      `the code returned ${size} characters of JSON; the limit is ${MAX_EVALUATE_RESULT_CHARS}`,
    );
  }
  return { type: result.type, value: result.value, logs };
}
