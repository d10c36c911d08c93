/**
 * The browser hub: WebSocket connections of every browser (launched, node, donated), tokens, and the
 * task scheduler that gives page tasks to tabs.
 */
export { createBrowserHub } from './create-browser-hub';
export type { BrowserDetails, BrowserEngineStats, BrowserHub } from './create-browser-hub';
export { createDonatedBrowserDirectory, deviceTokenDigest } from './donated-browser-directory';
export type { DonatedBrowserDirectory, PairedBrowser, PairedBrowsers } from './donated-browser-directory';
export { createDonatedRoutes, donatedRouteUnavailable, routesToDonated } from './donated-routes';
export type { DonatedBrowserState, DonatedRoute, DonatedRoutes } from './donated-routes';
export { NewNodeTokenInput, createNodeTokenAdmin } from './node-token-admin';
export type { NodeTokenAdmin, NodeTokenView } from './node-token-admin';
export { createNodeTokenDirectory } from './node-token-directory';
export { TaskError, isTaskFailureCode } from './task-error';
export type { RunOptions, SchedulerSnapshot, TaskPriority } from './task-scheduler';
