/**
 * The header on the 403 that a launched browser's egress proxy
 * (server/platform/browser-egress/start-browser-egress-proxy.ts) answers in place of a connection the URL policy
 * refuses. Its value is `<refusal>; <address>`: the refusal (`private-network`, `metadata`,
 * `invalid`) and the address refused (the literal host, or what the name resolved to). A task's
 * address guard that sees it on one of its tab's responses fails the task with URL_BLOCKED; only
 * browsers behind that proxy trust it (task-address-guard.ts).
 */
export const EGRESS_REFUSAL_HEADER = 'x-tabhive-egress-refused';
