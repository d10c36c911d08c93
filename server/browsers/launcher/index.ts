/**
 * Browsers this server launches itself: Chromium with the extension, its flags, its egress proxy, and
 * their relaunch.
 */
export { createLocalLauncher } from './create-local-launcher';
export type { LocalLauncher } from './create-local-launcher';
export type { SessionBrowser, SessionBrowsers } from './create-session-browsers';
export { DEFAULT_EXTENSION_DIR } from './extension-dir';
export { findChrome } from './find-chrome';
export { launchedBrowserSetup } from './launched-browser-setup';
export { startSessionBrowsers } from './start-session-browsers';
export { startStealthBrowsers } from './start-stealth-browsers';
