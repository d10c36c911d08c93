import { startPageSite, type PageSiteVisit } from './page-site';

/**
 * Where the attacker's site listens: a private address, which tests allow as the one exception
 * (ATTACKER_ONLY_ENV) so that it stands in for a public site while every other private address,
 * the internal services on 127.0.0.1 included, stays refused.
 */
export const ATTACKER_ADDRESS = '127.0.0.2';

/** A Tabhive's environment with private networks refused but for the attacker's site. */
export const ATTACKER_ONLY_ENV = { ALLOW_PRIVATE_NETWORKS: 'false', ALLOWED_PRIVATE_HOSTS: ATTACKER_ADDRESS };

/** The attacker's site on ATTACKER_ADDRESS, its pages titled `title` (startPageSite). */
export function startAttackerSite(title: string, route: (visit: PageSiteVisit) => void) {
  return startPageSite({ host: ATTACKER_ADDRESS, title }, route);
}
