import type { RE2JS } from 're2js';
import { bareHost, baseDomain, isSkippedFileType, type RobotsRules } from '../jobs';

export interface MapFilterOptions {
  start: URL;
  includeSubdomains: boolean;
  /** Keep only URLs under the start URL's path when it has one. */
  filterByPath: boolean;
  include: readonly RE2JS[];
  exclude: readonly RE2JS[];
  regexOnFullURL: boolean;
  /** The start origin's robots.txt; undefined when there is none or it is ignored. */
  robots: RobotsRules | undefined;
}

/**
 * Which URLs a map answer may list (docs/wire-contract.md §12.3 step 7): the start URL's registrable domain,
 * its exact host (ignoring `www.`) unless subdomains are wanted, its path when `filterByPath`, no
 * images or other files, the caller's include/exclude patterns, and robots.txt of the start origin.
 */
export function createMapFilter(options: MapFilterOptions): (url: URL) => boolean {
  const { start, includeSubdomains, filterByPath, include, exclude, regexOnFullURL, robots } = options;
  const startHost = bareHost(start.hostname);
  const domain = baseDomain(start.hostname);
  const pathPrefix = start.pathname.replace(/\/+$/, '');
  const matches = (patterns: readonly RE2JS[], text: string) =>
    patterns.some((pattern) => pattern.matcher(text).find());

  return (url) => {
    const host = bareHost(url.hostname);
    if (includeSubdomains ? host !== domain && !host.endsWith(`.${domain}`) : host !== startHost)
      return false;
    // A plain prefix, as Firecrawl's: `/docs` also admits `/docs-old`.
    if (filterByPath && pathPrefix !== '' && !url.pathname.startsWith(pathPrefix)) return false;
    if (isSkippedFileType(url)) return false;
    const subject = regexOnFullURL ? url.href : url.pathname;
    if (matches(exclude, subject)) return false;
    if (include.length > 0 && !matches(include, subject)) return false;
    if (robots !== undefined && url.origin === start.origin && !robots.allows(url)) return false;
    return true;
  };
}
