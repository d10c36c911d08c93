import { browser } from 'wxt/browser';
import { UNPAIR_PATH } from '../../shared/api/tabhive/browser-pairing';
import { readActivity } from '../ui/activity-log';
import { storeProblem } from './connection-problem';
import type { ConnectionStatus } from './connection-status';
import { writeDonationSettings } from './donation-settings';
import type { HubConnection } from './hub-connection';
import { clearHubSettings, isLaunchedBrowser, readHubSettings, writeHubSettings } from './hub-settings';
import { pairWithServer } from './pair-with-server';
import { savePageToServer } from './save-page';
import { UiRequest, type ConnectionProblem } from '../ui/ui-messages';

/** How long `pair` waits for the first connection, so that the page shows its outcome. */
const PAIR_CONNECT_WAIT_MS = 5_000;
const UNPAIR_NOTICE_TIMEOUT_MS = 3_000;

const browserLabel = () => {
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData
    ?.platform;
  return `Tabhive extension on ${platform || navigator.platform || 'a computer'}`;
};

/**
 * Answers the popup and the options page (ui-messages.ts): pairing, status, donation settings,
 * the activity log and saving a page. Only this extension's own pages are answered; there is no
 * externally_connectable surface, and content scripts have no business here.
 */
export function createUiRequestHandler({ status, hub }: { status: ConnectionStatus; hub: HubConnection }) {
  const ownPagePrefix = browser.runtime.getURL('/');

  const handle = async (request: UiRequest): Promise<unknown> => {
    switch (request.type) {
      case 'getStatus':
        return status.status();
      case 'pair': {
        // A launched browser serves the server that launched it, and nothing else, ever.
        if (await isLaunchedBrowser()) {
          const problem: ConnectionProblem = {
            code: 'refused',
            message: 'This browser was launched by a Tabhive server and works only for it.',
          };
          return { ok: false, problem };
        }
        const outcome = await pairWithServer({
          serverUrl: request.serverUrl,
          code: request.code,
          label: browserLabel(),
        });
        if (!outcome.ok) return outcome;
        await storeProblem(undefined);
        const settled = status.settled(PAIR_CONNECT_WAIT_MS);
        await writeHubSettings(outcome.settings);
        await settled;
        return { ok: true, status: await status.status() };
      }
      case 'unpair': {
        const settings = await readHubSettings();
        if (settings?.origin === 'paired') {
          // Tell the server, so that the token stops working there too; unpairing here goes on regardless.
          if (settings.serverBaseUrl !== undefined) {
            await fetch(`${settings.serverBaseUrl}${UNPAIR_PATH}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${settings.token}` },
              signal: AbortSignal.timeout(UNPAIR_NOTICE_TIMEOUT_MS),
            }).catch(() => undefined);
          }
          await clearHubSettings();
          await storeProblem(undefined);
          hub.close();
        }
        await status.refreshBadge();
        return status.status();
      }
      case 'saveDonation': {
        await writeDonationSettings(request.settings);
        // The server learns the new terms from the next hello; tasks running under the old ones stop.
        const settings = await readHubSettings();
        if (settings?.origin === 'paired' && hub.state() !== 'refused') hub.connect({ force: true });
        await status.refreshBadge();
        return status.status();
      }
      case 'getActivity':
        return { entries: await readActivity() };
      case 'savePage':
        return savePageToServer(request.page, await readHubSettings());
    }
  };

  return {
    /** For runtime.onMessage: a promise for our requests, undefined (no answer) for anything else. */
    listener(message: unknown, sender: { id?: string; url?: string }): Promise<unknown> | undefined {
      if (sender.id !== browser.runtime.id || !(sender.url ?? '').startsWith(ownPagePrefix)) return undefined;
      const parsed = UiRequest.safeParse(message);
      if (!parsed.success) return undefined;
      return handle(parsed.data);
    },
  };
}
