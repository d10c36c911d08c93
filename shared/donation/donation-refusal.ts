import type { Action } from '../api/v2/actions';
import type { DonationTerms } from '../protocol/messages';
import { urlAllowed } from './host-allowed';

/**
 * Why a donated browser's terms do not allow a task, in words for the API caller and the donor's
 * activity log; undefined when they do. The server asks before it routes a task, and the
 * extension asks again before it opens anything.
 */
export function donationRefusal(
  terms: DonationTerms,
  task: {
    url: string;
    actions?: readonly Action[] | undefined;
    headers?: Readonly<Record<string, string>> | undefined;
  },
): string | undefined {
  if (!terms.enabled) return 'the donated browser is paused by its owner';
  if (!urlAllowed(task.url, terms.allowedDomains)) {
    return "the URL is outside the domains the donated browser's owner allows";
  }
  if (!terms.allowJavascript && (task.actions ?? []).some((action) => action.type === 'executeJavascript')) {
    return "executeJavascript is not allowed on this team's donated browser for the URL; its owner has not allowed scripts";
  }
  // A caller's Cookie header would stand in for the owner's session, and whatever the site set in
  // answer would land in the owner's cookie jar.
  if (Object.keys(task.headers ?? {}).some((name) => name.toLowerCase() === 'cookie')) {
    return "a Cookie header cannot be sent through a donated browser; it uses its owner's login";
  }
  return undefined;
}
