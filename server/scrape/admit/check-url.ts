import { errors } from '../../platform/errors';
import type { UrlPolicy } from '../../platform/url-policy';

/** What the URL check reads of the scrape plan (scrape-plan.ts). */
export interface UrlCheckPlan {
  readonly target: URL;
  /**
   * Whether the URL policy judges the target: not for a page already in hand, nor for a public
   * name a cache-only request never looks up.
   */
  readonly checksUrl: boolean;
}

/** Refuses a target the URL policy forbids (private networks, names that do not resolve). */
export async function checkUrl({ target, checksUrl }: UrlCheckPlan, urlPolicy: UrlPolicy): Promise<void> {
  const verdict = checksUrl ? await urlPolicy.check(target) : { allowed: true as const };
  if (!verdict.allowed) {
    throw verdict.reason === 'dns'
      ? errors.dnsResolution(target.hostname)
      : errors.urlBlocked(verdict.message);
  }
}
