import { readDonationSettings } from '../hub/donation-settings';
import { directCdp } from './cdp-direct';
import { createLiveCommandRunner, type LiveCommandDeps, type LiveCommands } from './live-command-runner';

export type { LiveCommandDeps, LiveCommands } from './live-command-runner';

/**
 * The live view's and the cdpUrl relay's commands for one session tab (screencast, frame-ack,
 * input, cdp, cdp-events), sent through chrome.debugger to the tab whose debugger the session
 * attached. `run` answers a command's SessionResult or throws a PageTaskError; `stop` ends the
 * screencast and the event forwarding at the session's end.
 */
export function createLiveCommands(deps: LiveCommandDeps): LiveCommands {
  return createLiveCommandRunner({
    ...deps,
    direct: directCdp(deps.tabId),
    donorTerms: readDonationSettings,
  });
}
