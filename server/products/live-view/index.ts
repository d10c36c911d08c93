/** A browser session's live view page and socket, and its CDP relay. */
export { createCdpRelay, isCdpRelayPath } from './cdp-relay';
export { liveViewRoutes } from './live-view-routes';
export { createLiveViewSocket, isLiveViewSocketPath } from './live-view-socket';
