import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { DonatedRoute, DonatedRoutes } from '../../browsers/hub';
import type { ScrapeContext } from '../types';

/**
 * Where the team's donated browsers send this scrape's URL (browsers/hub/donated-routes.ts), asked
 * first of all, before the URL policy could resolve the name: a page already in hand goes
 * nowhere, and without donated routing nothing is routed. A scrape with a browser `profile` asks
 * for the profile's login on a launched browser, never a donated browser's owner's: it is not
 * routed, and its URL is judged as any launched browser's.
 */
export async function donatedRouteOf(
  request: ScrapeRequestV2,
  { teamId, capture }: Pick<ScrapeContext, 'teamId' | 'capture'>,
  donatedRoutes: DonatedRoutes | undefined,
): Promise<DonatedRoute | undefined> {
  if (capture !== undefined || donatedRoutes === undefined || request.profile !== undefined) return undefined;
  return donatedRoutes.routeFor(teamId, request.url.url);
}
