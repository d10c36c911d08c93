import type { PromptCrawlOptions } from './prompt-crawl-options';
import { NUMBER, parseNumber } from './prompt-numbers';

/**
 * How the rule-based reader turns common phrasing into crawl options: per option, phrases tried in
 * order, the first that matches decides. Negative phrasings come before the positive ones they
 * contain ("no subdomains" before "subdomains"). The patterns are ours and constant; they never
 * nest unbounded repetition, so a 10 000-character prompt is read in linear time.
 */
export interface OptionRule {
  pattern: RegExp;
  read(match: RegExpExecArray): PromptCrawlOptions | undefined;
}

const rule = (source: string, read: OptionRule['read']): OptionRule => ({
  pattern: new RegExp(source, 'i'),
  read,
});
const PAGES = '(?:pages?|urls?|links?|documents?|results?|articles?|posts?|items?|entries)';
const NEG =
  "(?:no|not|without|exclude|excluding|skip|skipping|ignore|ignoring|avoid|don't|do not|dont|never)";
/** Seconds per unit, by the unit's first letters: `ms`/`millisecond…`, `s`/`sec…`, `min…`. */
function unitSeconds(unit: string): number {
  if (unit.startsWith('ms') || unit.startsWith('milli')) return 0.001;
  return unit.startsWith('m') ? 60 : 1;
}

function count(text: string | undefined, { min }: { min: number }): number | undefined {
  const value = text === undefined ? undefined : parseNumber(text);
  return value !== undefined && Number.isInteger(value) && value >= min ? value : undefined;
}

function seconds(amount: string | undefined, unit: string | undefined): number | undefined {
  const value = amount === undefined ? 1 : parseNumber(amount);
  const factor = unitSeconds((unit ?? 's').toLowerCase());
  if (value === undefined || value <= 0) return undefined;
  return Math.round(value * factor * 1000) / 1000;
}

const limit = (match: RegExpExecArray) => {
  const value = count(match[1], { min: 1 });
  return value === undefined ? undefined : { limit: value };
};
const depth = (match: RegExpExecArray) => {
  const value = count(match[1], { min: 0 });
  return value === undefined ? undefined : { maxDiscoveryDepth: value };
};
const delay = (match: RegExpExecArray) => {
  const value = seconds(match[1], match[2]);
  return value === undefined ? undefined : { delay: value };
};

/** Rules that set several options come last, so that what an earlier rule read explicitly wins. */
export const OPTION_RULES: Readonly<Record<string, readonly OptionRule[]>> = {
  limit: [
    rule(
      `\\b(?:up to|at most|no more than|not more than|max(?:imum)?(?: of)?|limit(?:ed)?(?: it| the crawl| crawl| yourself)?(?: to| at| of|:)?|cap(?:ped)?(?: it)? at|the first|first|only|just|stop after|under|fewer than|less than|around|about|approximately|roughly)\\s+${NUMBER}\\s+(?:[a-z-]+\\s+){0,2}?${PAGES}\\b`,
      limit,
    ),
    rule(
      `\\b${NUMBER}\\s+(?:pages?|urls?|documents?)\\s+(?:max(?:imum)?|at most|tops|or (?:less|fewer)|limit)\\b`,
      limit,
    ),
    rule(`\\b(?:page |crawl )?limit(?:\\s+of|\\s*[:=]|\\s+to|\\s+is)?\\s+${NUMBER}\\b`, limit),
    rule(`\\b${NUMBER}[- ]page\\s+(?:limit|cap|max(?:imum)?)\\b`, limit),
    rule(
      `\\b(?:crawl|scrape|get|fetch|grab|collect|index|visit)\\s+(?:the\\s+)?(?:first\\s+)?${NUMBER}\\s+(?:[a-z-]+\\s+){0,2}?${PAGES}\\b`,
      limit,
    ),
    rule(`\\b${NUMBER}\\s+(?:pages|urls)\\b`, limit),
  ],
  subdomains: [
    rule(
      `\\b${NEG}\\s+(?:(?:include|including|crawl|crawling|follow|following|visit|go to|into)\\s+)?(?:the\\s+|any\\s+|other\\s+)?sub-?domains?\\b|\\bsub-?domains?\\s+(?:excluded|are excluded|not included)\\b|\\b(?:only|just|stay on)\\s+(?:the\\s+)?(?:main|primary|root)\\s+domain\\b`,
      () => ({ allowSubdomains: false }),
    ),
    rule('\\bsub-?domains?\\b', () => ({ allowSubdomains: true })),
  ],
  sitemap: [
    rule(
      `\\b(?:${NEG}|bypass|disable|don't use|do not use|dont use|never use|don't read|do not read)\\s+(?:(?:use|using|read|reading)\\s+)?(?:the\\s+|any\\s+|a\\s+)?(?:xml\\s+)?site-?maps?\\b|\\bsite-?maps?\\s+(?:off|disabled|skipped|ignored)\\b|\\b(?:only|just) (?:by )?follow(?:ing)? links\\b|\\bby following links only\\b`,
      () => ({ sitemap: 'skip' }),
    ),
    rule(
      '\\b(?:use|using|include|including|read|with|from|follow|via|also)\\s+(?:the\\s+|its\\s+|their\\s+)?(?:xml\\s+)?site-?maps?\\b',
      () => ({ sitemap: 'include' }),
    ),
  ],
  query: [
    rule(
      "\\b(?:keep|keeping|respect|preserve|don't ignore|do not ignore|dont ignore)\\s+(?:the\\s+|all\\s+)?(?:url\\s+)?query\\b|\\bquery (?:strings?|param(?:eter)?s?) (?:matter|are significant|make pages different)\\b",
      () => ({ ignoreQueryParameters: false }),
    ),
    rule(
      "\\b(?:ignore|ignoring|strip|stripping|drop|dropping|remove|removing|disregard|without|no)\\s+(?:the\\s+|all\\s+|any\\s+)?(?:url\\s+)?(?:query(?:[- ]?strings?|\\s+param(?:eter)?s?)?|url param(?:eter)?s?|search param(?:eter)?s?|get param(?:eter)?s?|param(?:eter)?s)\\b|\\bquery (?:strings?|param(?:eter)?s?) (?:don't|do not|dont) matter\\b|\\bregardless of (?:the )?query\\b",
      () => ({ ignoreQueryParameters: true }),
    ),
  ],
  external: [
    rule(
      `\\b(?:stay|staying|remain|keep)\\s+(?:on|within|inside)\\s+(?:the\\s+|this\\s+|that\\s+|one\\s+)?(?:same\\s+)?(?:web)?(?:site|domain)\\b|\\b(?:${NEG}|not following)\\s+(?:follow(?:ing)?\\s+)?(?:any\\s+)?(?:external|outbound|outside|off-?site|third-party)\\s+(?:links?|sites?|websites?|domains?|pages?)\\b`,
      () => ({ allowExternalLinks: false }),
    ),
    rule(
      '\\b(?:follow|following|include|including|allow|crawl|visit|also)\\s+(?:the\\s+|any\\s+)?(?:external|outbound|outside|off-?site|third-party|other)\\s+(?:links?|sites?|websites?|domains?|pages?)\\b|\\bexternal links\\b',
      () => ({ allowExternalLinks: true }),
    ),
  ],
  entireDomain: [
    rule(
      '\\b(?:only|just|stay)\\s+(?:under|within|inside|below)\\s+(?:the\\s+|this\\s+)?(?:start(?:ing)?\\s+)?(?:path|url|section|directory|folder)\\b',
      () => ({ crawlEntireDomain: false }),
    ),
    rule(
      '\\b(?:entire|whole|full|complete)\\s+(?:web)?(?:site|domain)\\b|\\beverything on the (?:web)?site\\b|\\ball (?:of the )?(?:pages|urls) (?:on|of|across) the (?:web)?(?:site|domain)\\b|\\b(?:parent|sibling|higher-level)\\s+(?:pages|paths|directories|sections)\\b|\\boutside (?:of )?(?:the |this )?(?:start(?:ing)? )?(?:path|section|directory|folder)\\b|\\bbackward links\\b',
      () => ({ crawlEntireDomain: true }),
    ),
  ],
  delay: [
    rule(
      `\\b(?:wait|waiting|delay|pause|sleep|pausing)(?:\\s+of|\\s+for)?\\s+${NUMBER}\\s*(ms|milliseconds?|s|secs?|seconds?|minutes?|mins?)\\b`,
      delay,
    ),
    rule(
      `\\b${NUMBER}\\s*(ms|milliseconds?|s|secs?|seconds?|minutes?|mins?)\\s+(?:delay|pause|wait|apart|between)\\b`,
      delay,
    ),
    rule(
      `\\b(?:one|a|1)\\s+(?:page|request)\\s+(?:per|every)\\s+(?:${NUMBER}\\s*)?(seconds?|secs?|s|minutes?|mins?)\\b`,
      delay,
    ),
    rule(
      "\\b(?:slowly|politely|gently|be polite|be gentle|don't overload|do not overload|don't hammer|do not hammer)\\b",
      () => ({ delay: 1 }),
    ),
  ],
  dedupe: [
    rule(
      "\\b(?:don't|do not|dont|no|without|never)\\s+(?:de-?dup(?:e|licate|lication)?|merg(?:e|ing))\\b|\\bkeep (?:all )?(?:the )?(?:duplicates|similar urls|url variants)\\b",
      () => ({ deduplicateSimilarURLs: false }),
    ),
    rule(
      '\\b(?:de-?dup(?:e|licate)?|merge|collapse)\\s+(?:the\\s+)?(?:similar|duplicate|near-duplicate)\\s+(?:urls|pages)\\b',
      () => ({ deduplicateSimilarURLs: true }),
    ),
  ],
  depth: [
    rule(
      '\\b(?:only|just)\\s+(?:the\\s+)?(?:start(?:ing)?|first|home|this|given|landing|root|entry|single)\\s*page\\b',
      () => ({ maxDiscoveryDepth: 0, sitemap: 'skip', limit: 1 }),
    ),
    rule(
      `\\b(?:don't|do not|dont|never|without)\\s+follow(?:ing)?\\s+(?:any\\s+)?links\\b|\\bno link following\\b`,
      () => ({ maxDiscoveryDepth: 0 }),
    ),
    rule(
      `\\b${NUMBER}\\s+(?:levels?|clicks?|hops?|links?|layers?|steps?)\\s+(?:deep|down|away|in|of depth|from the (?:start|home|front|landing)\\s*page)\\b`,
      depth,
    ),
    rule(
      `\\b(?:max(?:imum)?\\s+)?(?:discovery\\s+|crawl\\s+|link\\s+)?depth(?:\\s+limit)?(?:\\s+of|\\s*[:=]|\\s+to|\\s+is)?\\s+${NUMBER}\\b`,
      depth,
    ),
    rule(
      '\\b(?:directly|immediately)\\s+linked\\b|\\blinked (?:directly )?from the (?:start|home|front|landing)\\s*page\\b',
      () => ({ maxDiscoveryDepth: 1 }),
    ),
    rule(`\\b${NUMBER}\\s+levels?\\b`, depth),
  ],
};
