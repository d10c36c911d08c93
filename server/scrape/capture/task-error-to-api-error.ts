import { type TabhiveError, errors } from '../../platform/errors';
import { TaskError } from '../../browsers/hub';

/** What a failed page task means for the API caller (docs/wire-contract.md §1.8). */
export function taskErrorToApiError(err: unknown, target: URL): TabhiveError {
  if (!(err instanceof TaskError)) throw err;
  switch (err.code) {
    case 'SCRAPE_TIMEOUT':
      return errors.scrapeTimeout();
    case 'NO_BROWSER':
      return errors.noBrowser();
    case 'SCRAPE_DNS_RESOLUTION_ERROR':
      return errors.dnsResolution(target.hostname);
    case 'SCRAPE_SSL_ERROR':
      return errors.sslError(err.message);
    case 'SCRAPE_SITE_ERROR':
      return errors.siteError(err.message);
    case 'URL_BLOCKED':
      return errors.urlBlocked(err.message);
    case 'SCRAPE_ACTION_ERROR':
      return errors.actionFailed(err.message);
    case 'NO_STEALTH_BROWSER':
      return errors.stealthUnavailable();
    case 'DONATED_BROWSER_UNAVAILABLE':
      return errors.donatedBrowserUnavailable(err.message);
    case 'DONATED_BROWSER_REFUSED':
    case 'TASK_REFUSED':
      return errors.donatedBrowserRefused(err.message);
    case 'BROWSER_LOST':
    case 'BROWSER_ERROR':
    case 'TASK_CANCELLED':
      return errors.browserFailed(err.message);
  }
}
