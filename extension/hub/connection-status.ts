import { HubCloseCode } from '../../shared/protocol/messages';
import { showBadge } from '../ui/badge';
import { REVOKED_PROBLEM, describeConnection } from './describe-connection';
import { readStoredProblem, storeProblem } from './connection-problem';
import { readDonationSettings } from './donation-settings';
import type { HubState } from './hub-connection';
import { readHubSettings } from './hub-settings';
import type { UiStatus } from '../ui/ui-messages';

/**
 * The worker's view of its connection for people: follows the hub connection's states, keeps the
 * badge in step, remembers a revocation across worker restarts, and answers `getStatus`.
 */
export function createConnectionStatus({ runningTasks }: { runningTasks(): number }) {
  let hubState: HubState = 'idle';
  let closeCode: number | undefined;
  let detail: string | undefined;
  const listeners = new Set<() => void>();

  const status = async (): Promise<UiStatus> => {
    const [settings, storedProblem, donation] = await Promise.all([
      readHubSettings(),
      readStoredProblem(),
      readDonationSettings(),
    ]);
    return describeConnection({
      settings,
      hubState,
      closeCode,
      detail,
      storedProblem,
      runningTasks: runningTasks(),
      donation,
    });
  };

  const refreshBadge = async () => {
    const current = await status();
    await showBadge(current.state, current.runningTasks);
  };

  return {
    status,
    refreshBadge,
    state: () => hubState,

    async onHubState(state: HubState, stateDetail?: string, stateCloseCode?: number) {
      hubState = state;
      detail = stateDetail;
      closeCode = stateCloseCode;
      if (state === 'refused' && stateCloseCode === HubCloseCode.REVOKED) {
        const settings = await readHubSettings();
        if (settings?.origin === 'paired') await storeProblem(REVOKED_PROBLEM);
      }
      for (const listener of listeners) listener();
      await refreshBadge();
    },

    /** Resolves once the connection is open or refused, or after `timeoutMs`. */
    settled(timeoutMs: number): Promise<void> {
      return new Promise((resolve) => {
        const done = () => {
          listeners.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const check = () => {
          if (hubState === 'open' || hubState === 'refused') done();
        };
        const timer = setTimeout(done, timeoutMs);
        listeners.add(check);
      });
    },
  };
}

export type ConnectionStatus = ReturnType<typeof createConnectionStatus>;
