/**
 * The one way out for the server's own requests: outbound HTTP with the URL policy enforced at
 * connect time, on the addresses the check resolved (pinned DNS).
 */
export { createEgress } from './create-egress';
export type { Egress } from './create-egress';
