import { EXTENSION_ID } from '../../../shared/extension-identity';
import type { DevtoolsPipe } from './devtools-pipe';

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

/**
 * Evaluates an expression in the extension's service worker of one browser, through its DevTools
 * pipe, and returns its (awaited, JSON) value. The worker keeps `tabhiveNode` for this
 * (extension/entrypoints/background.ts): what a node asks of its browsers, no web page can.
 */
export async function evaluateInExtensionWorker<T>(pipe: DevtoolsPipe, expression: string): Promise<T> {
  const { targetInfos } = await pipe.call<{ targetInfos: TargetInfo[] }>('Target.getTargets');
  const worker = targetInfos.find(
    (target) =>
      target.type === 'service_worker' && target.url.startsWith(`chrome-extension://${EXTENSION_ID}/`),
  );
  if (worker === undefined) throw new Error('the extension worker is not running');
  const { sessionId } = await pipe.call<{ sessionId: string }>('Target.attachToTarget', {
    targetId: worker.targetId,
    flatten: true,
  });
  try {
    const evaluated = await pipe.call<{ result: { value?: unknown }; exceptionDetails?: { text?: string } }>(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true },
      sessionId,
    );
    if (evaluated.exceptionDetails !== undefined) {
      throw new Error(`the extension worker threw: ${evaluated.exceptionDetails.text ?? 'an exception'}`);
    }
    return evaluated.result.value as T;
  } finally {
    await pipe.call('Target.detachFromTarget', { sessionId }).catch(() => undefined);
  }
}
