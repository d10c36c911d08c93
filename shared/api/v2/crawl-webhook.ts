import { z } from 'zod';
import { WebhookHeaders } from './webhook-headers';

export const WEBHOOK_EVENTS = ['completed', 'failed', 'page', 'started'] as const;

/**
 * A `webhook` option of Firecrawl's shape: a URL, or a strict object with `headers`, `metadata`
 * (keys up to 200 characters, values up to 2,000) and the `events` to send (all of them when absent). The URL is checked with the plain URL rule
 * (no protocol is added); the egress policy decides at delivery. Normalised to the object form.
 */
export function webhookOption<const Events extends readonly [string, ...string[]]>(events: Events) {
  return z
    .union([
      z.url({ protocol: /^https?$/ }),
      z.strictObject({
        url: z.url({ protocol: /^https?$/ }),
        headers: WebhookHeaders.default({}),
        metadata: z.record(z.string().max(200), z.string().max(2_000)).default({}),
        events: z.array(z.enum(events)).default([...events]),
      }),
    ])
    .transform((webhook) =>
      typeof webhook === 'string'
        ? { url: webhook, headers: {}, metadata: {}, events: [...events] }
        : webhook,
    );
}

/** `webhook` of crawl and batch scrape (docs/wire-contract.md §14.1). */
export const WebhookV2 = webhookOption(WEBHOOK_EVENTS);
export type WebhookV2 = z.infer<typeof WebhookV2>;
