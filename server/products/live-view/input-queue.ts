import type { SessionInput } from '../../../shared/protocol/messages';
import type { LiveSession } from '../browser-sessions';

/** Moves are lossy: beyond this many inputs still on their way, a new move is dropped. */
const MAX_PENDING_FOR_MOVES = 2;
const INPUT_TIMEOUT_MS = 10_000;

/**
 * A session's input from its interactive viewers, sent to the tab one at a time and in order:
 * a key's down must reach the page before its up, a click before the text typed after it.
 */
export function createInputQueue(session: LiveSession) {
  let tail: Promise<unknown> = Promise.resolve();
  let pending = 0;

  return {
    push(input: SessionInput, onError: (err: Error) => void) {
      if (input.kind === 'mouse' && input.type === 'mouseMoved' && pending >= MAX_PENDING_FOR_MOVES) return;
      pending += 1;
      tail = tail
        .then(() => session.command({ kind: 'input', input }, INPUT_TIMEOUT_MS))
        .catch((err: unknown) => onError(err instanceof Error ? err : new Error(String(err))))
        .finally(() => {
          pending -= 1;
        });
    },
  };
}

export type InputQueue = ReturnType<typeof createInputQueue>;
