/**
 * The browsers wing: the hub every browser connects to, the launched pools, the browser nodes, the
 * cluster that shares browser work between instances, and pairing of donated browsers.
 */
export { createCluster } from './cluster';
export {
  createBrowserHub,
  createDonatedBrowserDirectory,
  createDonatedRoutes,
  createNodeTokenAdmin,
  createNodeTokenDirectory,
} from './hub';
export type { BrowserHub, DonatedRoutes } from './hub';
export type { BrowserTokens } from './launch-tokens';
export type { LocalLauncher, SessionBrowsers } from './launcher';
export { registerHubGauges, timeBrowserTasks } from './metrics';
export { createPairingService } from './pairing';
