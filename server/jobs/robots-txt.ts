/** The user agents whose robots.txt groups apply to Tabhive's crawler, as for Firecrawl's (contract §8). */
const AGENTS = ['firecrawlagent'];

export interface RobotsRules {
  allows(url: URL): boolean;
  /** Seconds between requests, from `Crawl-delay`. */
  crawlDelay: number | undefined;
  sitemaps: string[];
}

interface Rule {
  allow: boolean;
  path: string;
}

/**
 * Parses robots.txt (RFC 9309): the group for our agent, or `*`; the longest matching rule wins,
 * `Allow` on a tie; `*` and a final `$` in paths. Patterns are matched by hand, never as regexes.
 */
export function parseRobotsTxt(text: string): RobotsRules {
  const groups: Array<{ agents: string[]; rules: Rule[]; delay?: number }> = [];
  const sitemaps: string[] = [];
  let current: (typeof groups)[number] | undefined;
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
      current.agents.push(value.toLowerCase());
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
  const ours = groups.filter((group) => group.agents.some((agent) => AGENTS.includes(agent)));
  const chosen = ours.length > 0 ? ours : groups.filter((group) => group.agents.includes('*'));
  const rules = chosen.flatMap((group) => group.rules);
  const crawlDelay = chosen.find((group) => group.delay !== undefined)?.delay;
  return {
    sitemaps,
    crawlDelay,
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
