/**
 * Capture: the page from what was given, the cache, the HTTP fast path or a browser task (proxy retry,
 * profiles, blocked and placeholder pages).
 */
export { openBrowserProfile } from './browser-profile-use';
export type { BrowserProfileUse } from './browser-profile-use';
export { worthAnotherBrowser } from './block-pages/capture-block';
export { seenAsAnyoneWould } from './cache-policy';
export { createTaskChallengeSignals } from './challenge-watch';
export { createCachedCapture } from './cached-capture';
export type { CachedCapture } from './cached-capture';
export { capturePage } from './capture-page';
export type { CaptureDeps, CapturePlan, CapturedPage } from './capture-page';
export { countCacheLookups } from './count-cache-lookups';
export { createHttpFastPath } from './fast-path/create-http-fast-path';
export type { HttpFastPath } from './fast-path/create-http-fast-path';
export { fastPathEligible } from './fast-path/fast-path-eligible';
export { markHttpCaptures } from './fast-path/mark-http-captures';
export { LOADING_PLACEHOLDER_WARNING } from './loading-placeholder';
export { createSiteFiles } from './site-files';
export type { SiteFileReader, SiteFiles } from './site-files';
export { taskErrorToApiError } from './task-error-to-api-error';
