import { errors, type TabhiveError } from '../errors';
import type { UrlVerdict } from './create-url-policy';

/**
 * What a refused target means for the caller: a name nothing resolves is Firecrawl's DNS error, a
 * host that cannot be a site is a 400 saying the URL looks wrong, and every other refusal is a
 * block (URL_BLOCKED) whose message says why and what would allow it.
 */
export function urlRefusalError(verdict: Extract<UrlVerdict, { allowed: false }>, target: URL): TabhiveError {
  switch (verdict.reason) {
    case 'dns':
      return errors.dnsResolution(target.hostname);
    case 'not-a-host':
      return errors.urlLooksWrong(verdict.message);
    default:
      return errors.urlBlocked(verdict.message);
  }
}
