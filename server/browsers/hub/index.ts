/**
 * The browser hub: WebSocket connections of every browser (launched, node, donated), tokens, and the
 * task scheduler that gives page tasks to tabs.
 */
export { createBrowserHub } from './create-browser-hub';
export type { BrowserDetails, BrowserEngineStats, BrowserHub } from './create-browser-hub';
export { createDonatedBrowserDirectory, deviceTokenDigest } from './donated-browser-directory';
export { NewNodeTokenInput, createNodeTokenAdmin } from './node-token-admin';
export type { NodeTokenAdmin, NodeTokenView } from './node-token-admin';
export { createNodeTokenDirectory } from './node-token-directory';
export { TaskError, isTaskFailureCode } from './task-error';
export type { RunOptions, SchedulerSnapshot, TaskPriority } from './task-scheduler';
