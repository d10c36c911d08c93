import type { CdpSession } from './cdp-session';

/** A script threw, or its result could not be returned; the message is the page's own. */
export class InPageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InPageError';
  }
}

interface RemoteResult {
  result: { type: string; subtype?: string; value?: unknown; description?: string };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

export interface Evaluated {
  /** `typeof` of the value as the page saw it (`object` for null and arrays). */
  type: string;
  value: unknown;
}

/**
 * Evaluates `expression` in a fresh isolated world of the main frame: it shares the DOM with the
 * page but not its globals, so page scripts cannot see or tamper with it, and the page's CSP does
 * not apply (Runtime.evaluate is exempt, which scripting.executeScript + eval is not; docs/extension.md#caller-scripts).
 * A world per call, because a navigation destroys the previous one.
 */
export async function evaluateIsolated(
  cdp: CdpSession,
  frameId: string,
  expression: string,
  { awaitPromise = false }: { awaitPromise?: boolean } = {},
): Promise<Evaluated> {
  const { executionContextId } = await cdp.send<{ executionContextId: number }>('Page.createIsolatedWorld', {
    frameId,
    worldName: 'tabhive',
  });
  const evaluation = await cdp.send<RemoteResult>('Runtime.evaluate', {
    expression,
    contextId: executionContextId,
    returnByValue: true,
    awaitPromise,
  });
  if (evaluation.exceptionDetails !== undefined) {
    const details = evaluation.exceptionDetails;
    throw new InPageError(details.exception?.description?.split('\n')[0] ?? details.text);
  }
  return { type: evaluation.result.type, value: evaluation.result.value };
}

/** `(fn)(args…)` as source: `fn` must be self-contained (no imports, no outer variables). */
export function callSource(fn: (...args: never[]) => unknown, ...args: unknown[]): string {
  return `(${fn.toString()})(${args.map((arg) => JSON.stringify(arg)).join(', ')})`;
}
