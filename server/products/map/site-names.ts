import { bareHost, baseDomain } from '../jobs';

/** The map index's `site` of a URL: its host and port, lower-case, without a leading `www.`. */
export const siteOf = (url: URL): string => bareHost(url.host);

/** The map index's `domain` of a URL: the registrable domain its subdomains share (no port). */
export const domainOf = (url: URL): string => baseDomain(url.hostname);
