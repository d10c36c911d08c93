/** The user-agent token whose robots.txt groups apply to Tabhive's crawler by default, as for Firecrawl's (docs/wire-contract.md §8). */
export const DEFAULT_ROBOTS_AGENT = 'FirecrawlAgent';

export interface RobotsRules {
  allows(url: URL): boolean;
  /** Seconds between requests, from `Crawl-delay`. */
  crawlDelay: number | undefined;
  sitemaps: string[];
  /** The same robots.txt read for another user-agent token (a crawl's `robotsUserAgent`). */
  forAgent(userAgent: string): RobotsRules;
}

interface Rule {
  allow: boolean;
  path: string;
}

interface Group {
  agents: string[];
  rules: Rule[];
  delay?: number;
}

/**
 * The product token of a user-agent value, lower-cased: `Googlebot/2.1` and `googlebot` name the
 * same crawler (RFC 9309 §2.2.1 matches tokens case-insensitively; versions are not part of them).
 */
export function productToken(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '*') return '*';
  return (/^[A-Za-z0-9_-]+/.exec(trimmed)?.[0] ?? '').toLowerCase();
}

/**
 * Parses robots.txt (RFC 9309): the groups for the crawler's agent token, or else `*`; the longest
 * matching rule wins, `Allow` on a tie; `*` and a final `$` in paths. Patterns are matched by hand,
 * never as regexes. The default agent is DEFAULT_ROBOTS_AGENT; `forAgent` reads the same file for
 * another.
 */
export function parseRobotsTxt(text: string, userAgent: string = DEFAULT_ROBOTS_AGENT): RobotsRules {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | undefined;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/#.*/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent') {
      if (!lastWasAgent || current === undefined) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(productToken(value));
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (field === 'sitemap') sitemaps.push(value);
    else if (current === undefined) continue;
    else if (field === 'allow' || field === 'disallow') {
      if (value !== '') current.rules.push({ allow: field === 'allow', path: value });
    } else if (field === 'crawl-delay') {
      const delay = Number(value);
      if (Number.isFinite(delay) && delay >= 0) current.delay = delay;
    }
  }
  const readings = new Map<string, RobotsRules>();
  const readFor = (agent: string): RobotsRules => {
    const token = productToken(agent);
    let reading = readings.get(token);
    if (reading === undefined) {
      reading = { ...rulesFor(groups, token), sitemaps, forAgent: readFor };
      readings.set(token, reading);
    }
    return reading;
  };
  return readFor(userAgent);
}

/** The rules and crawl delay of the groups naming `token`, or of the `*` groups when none does. */
function rulesFor(groups: readonly Group[], token: string): Pick<RobotsRules, 'allows' | 'crawlDelay'> {
  const ours = token === '' ? [] : groups.filter((group) => group.agents.includes(token));
  const chosen = ours.length > 0 ? ours : groups.filter((group) => group.agents.includes('*'));
  const rules = chosen.flatMap((group) => group.rules);
  return {
    crawlDelay: chosen.find((group) => group.delay !== undefined)?.delay,
    allows(url) {
      const target = url.pathname + url.search;
      let best: Rule | undefined;
      for (const rule of rules) {
        if (!pathMatches(rule.path, target)) continue;
        if (
          best === undefined ||
          rule.path.length > best.path.length ||
          (rule.path.length === best.path.length && rule.allow)
        )
          best = rule;
      }
      return best?.allow ?? true;
    },
  };
}

/** `*` matches any run of characters, a final `$` anchors the end; everything else is a prefix. */
export function pathMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const parts = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  let position = 0;
  for (const [index, part] of parts.entries()) {
    if (index === 0) {
      if (!path.startsWith(part)) return false;
      position = part.length;
      continue;
    }
    const found =
      index === parts.length - 1 && anchored ? path.lastIndexOf(part) : path.indexOf(part, position);
    if (found < position) return false;
    position = found + part.length;
  }
  return !anchored || position === path.length;
}
