import { urlAllowed } from '../../../shared/donation/host-allowed';
import type { PairedBrowser, PairedBrowsers } from './donated-browser-directory';

/**
 * The state of the donated browser a URL goes to: `ready` (connected, a tab free), `busy`
 * (connected, every tab it lends in use), `offline`, `paused` (connected, its owner turned lending
 * off) or `revoked` (the team unpaired it).
 */
export type DonatedBrowserState = 'ready' | 'busy' | 'offline' | 'paused' | 'revoked';

/**
 * A team's URL whose host one of the team's donated browsers allows. Unless that browser was
 * revoked, the URL is the browser's alone: the server neither resolves the name nor connects to
 * it, nor hands it to a pool browser (it may be an intranet name only the person's network
 * knows). A revoked browser routes nothing; it only names what the URL used to go through, for
 * the error the caller gets when the server cannot reach the site itself.
 */
export interface DonatedRoute {
  browser: { id: string; label: string };
  state: DonatedBrowserState;
  /** When the browser was last connected (offline browsers), or revoked. */
  since?: Date | undefined;
}

/** Whether the route sends the URL to the donated browser only (every state but `revoked`). */
export const routesToDonated = (route: DonatedRoute | undefined): route is DonatedRoute =>
  route !== undefined && route.state !== 'revoked';

export interface DonatedRoutes {
  /**
   * Where the team's URL must go, decided before anything resolves its name; undefined when no
   * browser paired with the team allows the host (the server's own policy and browsers then).
   */
  routeFor(teamId: string, url: string): Promise<DonatedRoute | undefined>;
}

/** The most recent first: the browser the person used last is the one they will start again. */
const byRecency = (a: PairedBrowser, b: PairedBrowser) =>
  (b.revokedAt ?? b.lastSeenAt ?? new Date(0)).getTime() -
  (a.revokedAt ?? a.lastSeenAt ?? new Date(0)).getTime();

/**
 * Routing by the team's donated browsers: the connected ones that take the URL now (the hub's
 * scheduler), and, for a browser that is not connected, the domains its owner allowed when it last
 * was (the registrations in the store), so that a URL meant for it never falls through to the
 * server while it is away. If the store cannot be read, no browser is assumed: the server's own
 * URL policy then decides, as it does for any URL.
 */
export function createDonatedRoutes({
  hub,
  directory,
}: {
  hub: {
    donatedBrowsersFor(teamId: string, url: string): Array<{ browserId: string; busy: boolean }>;
    isBrowserConnected(browserId: string): boolean;
  };
  directory: Pick<PairedBrowsers, 'pairedWith'>;
}): DonatedRoutes {
  return {
    async routeFor(teamId, url) {
      const connected = hub.donatedBrowsersFor(teamId, url);
      const paired = await directory.pairedWith(teamId).catch(() => [] as PairedBrowser[]);
      const labelOf = (browserId: string) =>
        paired.find((browser) => browser.browserId === browserId)?.label ?? browserId;
      if (connected.length > 0) {
        const chosen = connected.find((browser) => !browser.busy) ?? connected[0]!;
        return {
          browser: { id: chosen.browserId, label: labelOf(chosen.browserId) },
          state: chosen.busy ? 'busy' : 'ready',
        };
      }
      const covering = paired.filter((browser) => urlAllowed(url, browser.allowedDomains)).sort(byRecency);
      const live = covering.filter((browser) => browser.revokedAt === undefined);
      // Connected but not taking the URL: its owner paused lending (its domains are as stored).
      const paused = live.find(
        (browser) => hub.isBrowserConnected(browser.browserId) || browser.enabled === false,
      );
      const chosen = paused ?? live[0];
      if (chosen !== undefined) {
        return {
          browser: { id: chosen.browserId, label: chosen.label },
          state: paused === undefined ? 'offline' : 'paused',
          since: paused === undefined ? chosen.lastSeenAt : undefined,
        };
      }
      const revoked = covering[0];
      return revoked === undefined
        ? undefined
        : {
            browser: { id: revoked.browserId, label: revoked.label },
            state: 'revoked',
            since: revoked.revokedAt,
          };
    },
  };
}

/**
 * Why the caller's URL cannot be scraped now, naming the donated browser that serves it and its
 * state, and what would help: the message of DONATED_BROWSER_UNAVAILABLE.
 */
export function donatedRouteUnavailable(route: DonatedRoute, host: string): string {
  const name = `your team's donated browser "${route.browser.label}"`;
  const since = route.since === undefined ? '' : ` since ${route.since.toISOString()}`;
  switch (route.state) {
    case 'offline':
      return `${host} is reached only through ${name}, which is offline${since}. The server does not fetch this site itself: start that browser (the Tabhive extension connects on its own) and try again.`;
    case 'paused':
      return `${host} is reached only through ${name}, whose owner has paused lending it (on the extension's options page). The server does not fetch this site itself: ask its owner to turn lending back on.`;
    case 'busy':
    case 'ready':
      return `${host} is reached only through ${name}, which was busy with the team's other tasks and did not take this one in time. Try again, or give the request a longer timeout.`;
    case 'revoked':
      return `${host} was reached through ${name}, which the team revoked${since}, and the server cannot reach it itself. Pair a browser that allows ${host} again (docs/donated-browsers.md).`;
  }
}
