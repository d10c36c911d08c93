import { RE2JS } from 're2js';
import type { RobotsRules } from './robots-txt';

/**
 * The crawler's link rules (docs/wire-contract.md §8), pure: which discovered URLs a crawl follows, and which
 * URLs count as the same page. Caller regexes run on RE2 (re2js, a pure-JS port): linear time, so
 * no pattern can stall the server; what RE2 cannot compile is a 400 at request time.
 */

export interface CrawlRules {
  includePaths: readonly string[];
  excludePaths: readonly string[];
  regexOnFullURL: boolean;
  /** Undefined: no limit. A page at this depth contributes no links. */
  maxDiscoveryDepth: number | undefined;
  /** v1 `maxDepth`: most path segments a crawled URL may have. */
  maxPathDepth: number;
  crawlEntireDomain: boolean;
  allowExternalLinks: boolean;
  allowSubdomains: boolean;
  ignoreQueryParameters: boolean;
  deduplicateSimilarURLs: boolean;
  /**
   * The user-agent token robots.txt is read for (`robotsUserAgent`); absent: Firecrawl's agent.
   * Optional, so that jobs stored before it existed read as before.
   */
  robotsUserAgent?: string | undefined;
}

export type CompiledPatterns = { include: RE2JS[]; exclude: RE2JS[] };

/** Compiles caller patterns; throws PatternError naming the first one RE2 refuses. */
export function compilePatterns(rules: Pick<CrawlRules, 'includePaths' | 'excludePaths'>): CompiledPatterns {
  const compile = (pattern: string) => {
    try {
      return RE2JS.compile(pattern);
    } catch (err) {
      throw new PatternError(pattern, err instanceof Error ? err.message : String(err));
    }
  };
  return { include: rules.includePaths.map(compile), exclude: rules.excludePaths.map(compile) };
}

export class PatternError extends Error {
  constructor(
    readonly pattern: string,
    reason: string,
  ) {
    super(`Invalid regular expression: /${pattern}/: ${reason}`);
  }
}

const SKIPPED_EXTENSIONS =
  /\.(png|jpe?g|gif|css|js|ico|svg|tiff|zip|exe|dmg|mp4|mp3|wav|pptx|xlsx|avi|flv|woff2?|ttf|webp|inc)$/i;
const SOCIAL_HOSTS = [
  'facebook.com',
  'twitter.com',
  'linkedin.com',
  'instagram.com',
  'pinterest.com',
  'github.com',
  'calendly.com',
  'discord.gg',
  'discord.com',
];

/** Images, styles, scripts, media and archives: never pages a crawl or a map lists (docs/wire-contract.md §8). */
export function isSkippedFileType(url: URL): boolean {
  return SKIPPED_EXTENSIONS.test(url.pathname);
}

/** Non-empty path segments, not counting a final index file. */
export function pathDepth(url: URL): number {
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  if (/^index\.(html?|php)$/i.test(segments.at(-1) ?? '')) segments.pop();
  return segments.length;
}

export const bareHost = (host: string) => host.toLowerCase().replace(/^www\./, '');

/** The last two labels of a host: a stand-in for the registrable domain without a suffix list. */
export function baseDomain(host: string): string {
  const labels = bareHost(host).split('.');
  return labels.slice(-2).join('.');
}

/**
 * The key under which a crawl de-duplicates URLs: no fragment; no query with
 * `ignoreQueryParameters`; with `deduplicateSimilarURLs`, http/https, `www.`, a trailing slash and
 * an index file collapse to one key.
 */
export function urlKey(
  url: URL,
  rules: Pick<CrawlRules, 'ignoreQueryParameters' | 'deduplicateSimilarURLs'>,
): string {
  const copy = new URL(url.href);
  copy.hash = '';
  if (rules.ignoreQueryParameters) copy.search = '';
  if (!rules.deduplicateSimilarURLs) return copy.href;
  const path = copy.pathname.replace(/\/index\.(html?|php)$/i, '/').replace(/\/+$/, '');
  return `${bareHost(copy.host)}${path}${copy.search}`;
}

function matchesAny(patterns: readonly RE2JS[], text: string): boolean {
  return patterns.some((pattern) => pattern.matcher(text).find());
}

export type LinkVerdict = 'follow' | 'robots' | 'skip';

/**
 * Whether a crawl follows `link`, found on a page of depth `fromDepth`. `start` is the crawl's
 * start URL; `robots` the rules for the link's origin (undefined: none or ignored).
 */
export function judgeLink({
  link,
  start,
  fromDepth,
  rules,
  patterns,
  robots,
}: {
  link: URL;
  start: URL;
  fromDepth: number;
  rules: CrawlRules;
  patterns: CompiledPatterns;
  robots: RobotsRules | undefined;
}): LinkVerdict {
  if (rules.maxDiscoveryDepth !== undefined && fromDepth >= rules.maxDiscoveryDepth) return 'skip';
  if (!inCrawlScope(link, start, rules)) return 'skip';
  return judgeTarget({ url: link, start, rules, patterns, robots });
}

/**
 * The host rules every URL a crawl takes passes, links and sitemap entries alike: http(s), the
 * start host, its subdomains with `allowSubdomains`, other sites with `allowExternalLinks`. A
 * sitemap may list any host, so its entries are no more trusted than a page's links. Cheap, so
 * it runs before anything is fetched for the URL (its robots.txt).
 */
export function inCrawlScope(url: URL, start: URL, rules: CrawlRules): boolean {
  return (url.protocol === 'http:' || url.protocol === 'https:') && isInScope(url, start, rules);
}

/**
 * The path rules every crawled URL passes, sitemap entries included (filterLinks, docs/wire-contract.md §8);
 * the host rules are inCrawlScope's.
 */
export function judgeTarget({
  url,
  start,
  rules,
  patterns,
  robots,
}: {
  url: URL;
  start: URL;
  rules: CrawlRules;
  patterns: CompiledPatterns;
  robots: RobotsRules | undefined;
}): LinkVerdict {
  if (pathDepth(url) > rules.maxPathDepth) return 'skip';
  const subject = rules.regexOnFullURL ? url.href : url.pathname;
  if (matchesAny(patterns.exclude, subject)) return 'skip';
  if (patterns.include.length > 0 && !matchesAny(patterns.include, subject)) return 'skip';
  const sameHost = bareHost(url.host) === bareHost(start.host);
  if (sameHost && !rules.crawlEntireDomain && !url.pathname.startsWith(start.pathname)) return 'skip';
  if (SKIPPED_EXTENSIONS.test(url.pathname)) return 'skip';
  if (robots !== undefined && !robotsFor(robots, rules).allows(url)) return 'robots';
  return 'follow';
}

/** robots.txt as the crawl's agent reads it (`robotsUserAgent`, or the default agent). */
export function robotsFor(robots: RobotsRules, rules: Pick<CrawlRules, 'robotsUserAgent'>): RobotsRules {
  return rules.robotsUserAgent === undefined ? robots : robots.forAgent(rules.robotsUserAgent);
}

/** Host rules: the start host; subdomains and other sites only when asked for. */
function isInScope(link: URL, start: URL, rules: CrawlRules): boolean {
  if (bareHost(link.host) === bareHost(start.host)) {
    // `#/route` fragments are single-page-app routes; other fragments are the same page.
    return link.hash === '' || (link.hash.length > 2 && link.hash.includes('/'));
  }
  if (SOCIAL_HOSTS.some((host) => link.hostname === host || link.hostname.endsWith(`.${host}`))) return false;
  if (rules.allowSubdomains && link.port === start.port) {
    const base = baseDomain(start.hostname);
    if (link.hostname === base || link.hostname.endsWith(`.${base}`)) return true;
  }
  if (rules.allowExternalLinks) return link.pathname !== '/' || link.search !== '';
  return false;
}
