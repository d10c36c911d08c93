import { MAX_MESSAGE_BYTES, type ResultMessage } from '../../shared/protocol/messages';

/**
 * The most bytes a value's JSON can take, without writing it: JSON escapes a character to six
 * bytes at most (`\u001f`), and a number to 24. The result is serialised once more to be sent,
 * and pages run to megabytes: a bound that settles nearly every result spares the extension's
 * worker a second serialisation and an encoding of each page.
 */
function jsonBytesAtMost(value: unknown): number {
  if (typeof value === 'string') return value.length * 6 + 2;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return 24;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + jsonBytesAtMost(item) + 1, 2);
  if (typeof value === 'object') {
    let sum = 2;
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (item !== undefined) sum += key.length * 6 + 4 + jsonBytesAtMost(item);
    }
    return sum;
  }
  return 0;
}

/** The result, or an error in its place when it would not fit in one hub frame. */
export function fitResult(message: ResultMessage, maxBytes = MAX_MESSAGE_BYTES): ResultMessage {
  if (jsonBytesAtMost(message) <= maxBytes) return message;
  const bytes = new TextEncoder().encode(JSON.stringify(message)).byteLength;
  if (bytes <= maxBytes) return message;
  return {
    type: 'result',
    taskId: message.taskId,
    ok: false,
    ...(message.apiCalls === undefined ? {} : { apiCalls: message.apiCalls }),
    error: {
      code: 'BROWSER_ERROR',
      message: `the page's capture is ${bytes} bytes, more than the ${maxBytes} one message may carry`,
    },
  };
}
