/**
 * Browser sessions: a leased tab (or a launched browser) a caller drives with actions, code or
 * prompts.
 */
export { createBrowserSessionService } from './create-browser-session-service';
export type { BrowserSessionService } from './create-browser-session-service';
export { createSessionLeases } from './create-session-leases';
export type { LiveSession, LiveSessionDirectory } from './live-session';
