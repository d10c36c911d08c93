import { HEADER_NAME, MAX_HEADERS, MAX_HEADER_LENGTH, isConnectionHeader } from '../http-header-rules';
import { z } from 'zod';

export const MAX_WEBHOOK_HEADERS = MAX_HEADERS;
/** Longest header name or value, in characters. */
export const MAX_WEBHOOK_HEADER_LENGTH = MAX_HEADER_LENGTH;

/**
 * RFC 9110 `field-value` characters: tab, space, visible ASCII and obs-text. CR or LF would split
 * the delivery's header block; the HTTP client refuses NUL, other controls and wider characters,
 * which would make every delivery fail.
 */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const HEADER_VALUE_ERROR =
  'Header values must be one line of printable characters: no CR, LF, NUL or other control characters';

/**
 * Headers every delivery carries from the sender: a caller's copy would forge or contradict them
 * (a second `X-Firecrawl-Signature` next to the real one). The sender sets these after the
 * caller's headers, so they win at delivery too.
 */
export const WEBHOOK_SENDER_HEADERS = ['content-type', 'webhook-id', 'x-firecrawl-signature'] as const;

/**
 * Besides the connection's own headers (isConnectionHeader), `expect`: the client would wait for a
 * 100 it does not handle.
 */
const isTransportHeader = (name: string) => isConnectionHeader(name) || name.toLowerCase() === 'expect';

/** The body is always JSON: a caller who says so too is not contradicting the sender. */
const JSON_CONTENT_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** Whether a name and value make a well-formed header line. */
export function isWellFormedHeader(name: string, value: string): boolean {
  return (
    name.length <= MAX_WEBHOOK_HEADER_LENGTH &&
    value.length <= MAX_WEBHOOK_HEADER_LENGTH &&
    HEADER_NAME.test(name) &&
    HEADER_VALUE.test(value)
  );
}

/** Why a caller may not set this header on deliveries, or undefined when it may. */
export function webhookHeaderRefusal(name: string, value: string): string | undefined {
  const lower = name.toLowerCase();
  if (isTransportHeader(name))
    return `Webhook header "${name}" is not allowed: the HTTP client sets it for the connection to the webhook URL`;
  if (lower === 'content-type')
    return JSON_CONTENT_TYPE.test(value)
      ? undefined
      : `Webhook header "${name}" is not allowed: deliveries are always sent as application/json`;
  if ((WEBHOOK_SENDER_HEADERS as readonly string[]).includes(lower))
    return `Webhook header "${name}" is not allowed: Tabhive sets it on every delivery`;
  return undefined;
}

/**
 * `webhook.headers`: extra headers for the caller's receiver (an auth token, a tenant). Names are
 * tokens, values single lines; headers the sender or the HTTP client own are refused when the job
 * is submitted, so a delivery never fails (or gets forged) because of them later.
 */
export const WebhookHeaders = z
  .record(
    z
      .string()
      .max(MAX_WEBHOOK_HEADER_LENGTH)
      .regex(HEADER_NAME, { error: "Invalid header name: use letters, digits and !#$%&'*+.^_`|~-" }),
    z.string().max(MAX_WEBHOOK_HEADER_LENGTH).regex(HEADER_VALUE, { error: HEADER_VALUE_ERROR }),
  )
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > MAX_WEBHOOK_HEADERS)
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_WEBHOOK_HEADERS} webhook headers are allowed` });
    const seen = new Set<string>();
    for (const name of names) {
      const lower = name.toLowerCase();
      if (seen.has(lower))
        ctx.addIssue({ code: 'custom', path: [name], message: `Webhook header "${name}" is given twice` });
      seen.add(lower);
      const reason = webhookHeaderRefusal(name, headers[name] ?? '');
      if (reason !== undefined) ctx.addIssue({ code: 'custom', path: [name], message: reason });
    }
  });
export type WebhookHeaders = z.infer<typeof WebhookHeaders>;
