import { MAX_MESSAGE_BYTES, type ResultMessage } from '../../shared/protocol/messages';

/** The result, or an error in its place when it would not fit in one hub frame. */
export function fitResult(message: ResultMessage, maxBytes = MAX_MESSAGE_BYTES): ResultMessage {
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
