import { ErrorResponse, PAIR_PATH, PairResponse } from '../../shared/api/tabhive/browser-pairing';
import { HUB_PATH } from '../../shared/protocol/messages';
import type { HubSettings } from './hub-settings';
import type { ConnectionProblem } from '../ui/ui-messages';

export type PairOutcome =
  { ok: true; settings: HubSettings & { origin: 'paired' } } | { ok: false; problem: ConnectionProblem };

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The server's base URL as a person typed it: a scheme is optional (https is assumed), and plain
 * http is accepted only for a server on this computer, because the device token and every task
 * would otherwise cross the network in the clear.
 */
export function parseServerUrl(typed: string): URL | ConnectionProblem {
  const text = typed.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return {
      code: 'code-invalid',
      message: `"${text}" is not a server address. Enter it as https://tabhive.example.com.`,
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { code: 'refused', message: 'The server address must start with https://.' };
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.test(url.hostname)) {
    return {
      code: 'refused',
      message:
        'Use https:// for a server on another computer: plain http would send the pairing in the clear.',
    };
  }
  url.search = '';
  url.hash = '';
  return url;
}

/** The hub's WebSocket URL on the same server: ws for http, wss for https. */
export function hubUrlOf(base: URL): string {
  const hub = new URL(base.href);
  hub.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  hub.pathname = `${base.pathname.replace(/\/+$/, '')}${HUB_PATH}`;
  return hub.href;
}

/**
 * Exchanges a one-time pairing code for this browser's device token, and says in words a person
 * can act on what went wrong when it does not work.
 */
export async function pairWithServer({
  serverUrl,
  code,
  label,
  fetchFn = fetch,
}: {
  serverUrl: string;
  code: string;
  label: string;
  fetchFn?: typeof fetch;
}): Promise<PairOutcome> {
  const base = parseServerUrl(serverUrl);
  if (!(base instanceof URL)) return { ok: false, problem: base };
  if (code.trim() === '') {
    return {
      ok: false,
      problem: { code: 'code-invalid', message: 'Enter the pairing code your team gave you.' },
    };
  }
  let response: Response;
  try {
    response = await fetchFn(`${base.href.replace(/\/$/, '')}${PAIR_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: code.trim(), label }),
    });
  } catch {
    return {
      ok: false,
      problem: {
        code: 'unreachable',
        message: `The server at ${base.origin} cannot be reached. Check the address and that the server is running.`,
      },
    };
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok) {
    const paired = PairResponse.safeParse(body);
    if (!paired.success) {
      return {
        ok: false,
        problem: { code: 'incompatible', message: `${base.origin} did not answer like a Tabhive server.` },
      };
    }
    return {
      ok: true,
      settings: {
        serverUrl: hubUrlOf(base),
        token: paired.data.deviceToken,
        origin: 'paired',
        serverBaseUrl: base.href.replace(/\/$/, ''),
        team: paired.data.team,
        browserId: paired.data.browserId,
      },
    };
  }
  const error = ErrorResponse.safeParse(body);
  switch (error.success ? error.data.code : undefined) {
    case 'PAIRING_CODE_EXPIRED':
      return {
        ok: false,
        problem: {
          code: 'code-expired',
          message: 'This pairing code has expired. Ask your team for a new one.',
        },
      };
    case 'PAIRING_CODE_INVALID':
    case 'BAD_REQUEST':
      return {
        ok: false,
        problem: {
          code: 'code-invalid',
          message:
            'This pairing code is not valid or was already used. Check it, or ask your team for a new one.',
        },
      };
  }
  if (response.status === 404 || !error.success) {
    return {
      ok: false,
      problem: {
        code: 'incompatible',
        message: `${base.origin} is not a Tabhive server that pairs browsers.`,
      },
    };
  }
  return {
    ok: false,
    problem: { code: 'refused', message: `The server refused the pairing: ${error.data.error}` },
  };
}
