import { ErrorResponse, SAVED_PAGES_PATH } from '../../shared/api/tabhive/browser-pairing';
import type { HubSettings } from './hub-settings';
import type { SavedPage } from '../ui/ui-messages';

const SAVE_TIMEOUT_MS = 15_000;

/**
 * Sends a page the person scraped by hand to their team's search index on the paired server,
 * authenticated with this browser's device token.
 */
export async function savePageToServer(
  page: SavedPage,
  settings: HubSettings | undefined,
  fetchFn: typeof fetch = fetch,
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (settings?.origin !== 'paired' || settings.serverBaseUrl === undefined) {
    return { ok: false, message: 'Pair this browser with your team’s Tabhive server to save pages to it.' };
  }
  let response: Response;
  try {
    response = await fetchFn(`${settings.serverBaseUrl}${SAVED_PAGES_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${settings.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(page),
      signal: AbortSignal.timeout(SAVE_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, message: `The server at ${settings.serverBaseUrl} cannot be reached right now.` };
  }
  if (response.ok) return { ok: true };
  const error = ErrorResponse.safeParse(await response.json().catch(() => undefined));
  if (response.status === 401) {
    return { ok: false, message: "The server no longer accepts this browser's pairing. Pair it again." };
  }
  return {
    ok: false,
    message: error.success
      ? `The server did not save the page: ${error.data.error}`
      : `The server answered ${response.status}.`,
  };
}
