import { HubCloseCode } from '../../shared/protocol/messages';
import type { HubState } from './hub-connection';
import type { HubSettings } from './hub-settings';
import type { ConnectionProblem, DonationSettings, UiStatus } from '../ui/ui-messages';

export const REVOKED_PROBLEM: ConnectionProblem = {
  code: 'revoked',
  message: "Your team revoked this browser's pairing. Pair it again with a new code to keep helping.",
};

/** Why the hub refused this browser, from the code it closed the socket with. */
export function refusalProblem(closeCode: number | undefined, detail: string | undefined): ConnectionProblem {
  switch (closeCode) {
    case HubCloseCode.REVOKED:
      return REVOKED_PROBLEM;
    case HubCloseCode.UNAUTHORIZED:
      return {
        code: 'refused',
        message: "The server does not accept this browser's token any more. Pair it again with a new code.",
      };
    case HubCloseCode.VERSION_MISMATCH:
      return {
        code: 'incompatible',
        message: 'This extension and the server speak different protocol versions. Update the extension.',
      };
    default:
      return { code: 'refused', message: `The server refused the connection${detail ? `: ${detail}` : '.'}` };
  }
}

/** What the badge and the pages show, from what the worker knows about its connection. */
export function describeConnection({
  settings,
  hubState,
  closeCode,
  detail,
  storedProblem,
  runningTasks,
  donation,
}: {
  settings: HubSettings | undefined;
  hubState: HubState;
  closeCode?: number | undefined;
  detail?: string | undefined;
  /** A problem kept across worker restarts (a revoked pairing). */
  storedProblem?: ConnectionProblem | undefined;
  runningTasks: number;
  donation: DonationSettings;
}): UiStatus {
  const common = {
    runningTasks,
    donation,
    ...(settings === undefined
      ? {}
      : {
          origin: settings.origin,
          serverUrl: settings.serverBaseUrl ?? settings.serverUrl,
          ...(settings.team === undefined ? {} : { team: settings.team.name }),
        }),
  };
  if (settings === undefined) return { state: 'unpaired', ...common };
  if (storedProblem !== undefined) return { state: 'disconnected', problem: storedProblem, ...common };
  switch (hubState) {
    case 'open':
      return { state: runningTasks > 0 ? 'working' : 'idle', ...common };
    case 'idle':
    case 'connecting':
      return { state: 'connecting', ...common };
    case 'waiting':
      return {
        state: 'disconnected',
        problem: {
          code: 'unreachable',
          message: `The server at ${settings.serverBaseUrl ?? settings.serverUrl} cannot be reached right now; trying again shortly.`,
        },
        ...common,
      };
    case 'refused':
      return { state: 'disconnected', problem: refusalProblem(closeCode, detail), ...common };
  }
}
