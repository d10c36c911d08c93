import { type DonatedRoute, donatedRouteUnavailable, routesToDonated } from '../../browsers/hub';
import { errors } from '../../platform/errors';
import { type UrlPolicy, type UrlRefusalReason, urlRefusalError } from '../../platform/url-policy';

/** What the URL check reads of the scrape plan (scrape-plan.ts). */
export interface UrlCheckPlan {
  readonly target: URL;
  /**
   * Whether the URL policy judges the target: not for a page already in hand, nor for a public
   * name a cache-only request never looks up.
   */
  readonly checksUrl: boolean;
  /** Where the team's donated browsers send the URL (browsers/hub/donated-routes.ts), if anywhere. */
  readonly donatedRoute: DonatedRoute | undefined;
}

/** Refusals a revoked donated browser explains better: the server cannot reach the site itself. */
const REACHED_ONLY_BY_DONOR: ReadonlySet<UrlRefusalReason> = new Set([
  'dns',
  'private-network',
  'not-a-host',
]);

/**
 * Refuses a target the URL policy forbids (private networks, names that do not resolve, hosts that
 * cannot be a site). A URL only the team's donated browser takes is not judged at all: the server
 * makes no connection to it and does not even resolve its name (the browser's owner chose it, and
 * the browser holds its fence). One that a browser the team revoked used to take says so, rather
 * than that the name does not resolve.
 */
export async function checkUrl(
  { target, checksUrl, donatedRoute }: UrlCheckPlan,
  urlPolicy: UrlPolicy,
): Promise<void> {
  if (!checksUrl || routesToDonated(donatedRoute)) return;
  const verdict = await urlPolicy.check(target);
  if (verdict.allowed) return;
  if (donatedRoute !== undefined && REACHED_ONLY_BY_DONOR.has(verdict.reason)) {
    throw errors.donatedBrowserUnavailable(donatedRouteUnavailable(donatedRoute, target.hostname));
  }
  throw urlRefusalError(verdict, target);
}
