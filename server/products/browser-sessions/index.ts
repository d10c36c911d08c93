/**
 * Browser sessions: a leased tab (or a launched browser) a caller drives with actions, code or
 * prompts.
 */
export { createBrowserSessionService } from './create-browser-session-service';
export type { BrowserSessionService } from './create-browser-session-service';
export { createSessionLeases } from './create-session-leases';
export { createChallengeViews, joinLiveSessionDirectories } from './create-challenge-views';
export type { ChallengeView, ChallengeViews } from './create-challenge-views';
export type { LiveSession, LiveSessionDirectory } from './live-session';
export { createReplayRecorder } from './replay-recorder';
export { createReplayService } from './replay-service';
export type { ReplayService } from './replay-service';
