/**
 * Launch tokens: the one-time secrets a launched browser presents to the hub, shared by the
 * launchers that hand them out and the hub that checks them.
 */
export { createBrowserTokens } from './browser-tokens';
export type { BrowserTokens, TokenCheck } from './browser-tokens';
