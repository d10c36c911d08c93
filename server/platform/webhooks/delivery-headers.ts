import {
  WEBHOOK_SENDER_HEADERS,
  isWellFormedHeader,
  webhookHeaderRefusal,
} from '../../../shared/api/v2/webhook-headers';

const senderOwned = new Set<string>(WEBHOOK_SENDER_HEADERS);

/**
 * The headers of one delivery: the caller's `webhook.headers`, then the sender's own, which win
 * whatever the case of the caller's names. Submission refuses the headers dropped here; jobs
 * stored before it did may still hold them, and a delivery must neither fail nor be forged for it.
 */
export function deliveryHeaders(
  caller: Readonly<Record<string, string>>,
  own: Readonly<Record<string, string>>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(caller)) {
    if (senderOwned.has(name.toLowerCase())) continue;
    if (!isWellFormedHeader(name, value) || webhookHeaderRefusal(name, value) !== undefined) continue;
    headers[name] = value;
  }
  for (const [name, value] of Object.entries(own)) headers[name.toLowerCase()] = value;
  return headers;
}
