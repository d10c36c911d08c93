import { LANGUAGES, NOT_SECTIONS, SECTIONS, explicitPathPattern, sectionPattern } from './prompt-sections';

/** Clause boundaries: a "but" or punctuation ends what a "not" or an "only" applies to. */
const CLAUSES = /[,;.!?\n]+|\b(?:but|however|though|whereas)\b/;
/** Cues that turn the section after them into an exclusion; compound forms first ("don't crawl"). */
const NEGATIVE_CUE =
  /\b(?:(?:don't|do not|dont|never)\s+(?:crawl|include|scrape|visit|follow|fetch|index|want|need|go)|not|no|never|without|except|excluding|exclude|skip|skipping|ignore|ignoring|avoid|avoiding|leave out|leaving out|minus|other than|apart from|besides|rather than|instead of)\b/g;
const POSITIVE_CUE =
  /\b(?:only|just|include|including|crawl|scrape|get|fetch|focus on|focusing on|limit to|restrict to|restricted to|want|need|also|plus|keep|grab|collect|extract)\b/g;
/** "only the shoe pages": a word the vocabulary does not know, right after a cue. */
const GENERIC =
  /\b(?:only|just|all|exclude|excluding|skip|no|not|except)\s+(?:the\s+|any\s+)?([a-z][a-z0-9-]{2,})\s+(?:pages?|section|posts?|articles?|area)\b/g;
/** Host names and URLs ("blog.example.com") name sites, not sections; they are read by no rule here. */
const HOSTS = /(?<![/\w])(?:https?:\/\/)?[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:\/\S*)?/g;
const PDF = /\bpdfs?\b(?:\s+files?|\s+documents?)?/g;
const EXPLICIT_PATH = /(?:^|[\s"'(])(\/[a-z0-9][\w\-.~%/*]*)/g;
const LANGUAGE = new RegExp(
  `\\b(${Object.keys(LANGUAGES).join('|')})\\b(?:\\s+(?:pages?|version|content|site|articles?))?`,
  'g',
);

interface Mention {
  at: number;
  pattern: string;
}

function mentionsIn(clause: string): Mention[] {
  let rest = clause;
  const mentions: Mention[] = [];
  // Each found phrase is blanked out so that a shorter phrase inside it is not read again.
  const take = (regex: RegExp, toPattern: (match: RegExpMatchArray) => string | undefined) => {
    for (const match of rest.matchAll(regex)) {
      const pattern = toPattern(match);
      if (pattern === undefined) continue;
      // Where the named thing starts (a cue inside the match, as in GENERIC, stays before it).
      const at = match[1] === undefined ? match.index : match.index + match[0].indexOf(match[1]);
      mentions.push({ at, pattern });
      rest =
        rest.slice(0, match.index) + ' '.repeat(match[0].length) + rest.slice(match.index + match[0].length);
    }
  };
  take(EXPLICIT_PATH, (match) => (match[1] === '/' ? undefined : explicitPathPattern(match[1]!)));
  take(PDF, () => '\\.pdf$');
  take(LANGUAGE, (match) => `^/${LANGUAGES[match[1]!]!}(?:/|$)`);
  for (const section of SECTIONS) take(section.words, () => sectionPattern(section.slugs));
  take(GENERIC, (match) => {
    const word = match[1]!;
    if (NOT_SECTIONS.has(word) || /\d/.test(word)) return undefined;
    return sectionPattern(
      [word.endsWith('s') ? word : `${word}s`, word].filter((w, i, all) => all.indexOf(w) === i),
    );
  });
  return mentions;
}

/** Whether the last cue before `at` in the clause is a negative one (no cue: positive). */
function isNegated(clause: string, at: number): boolean {
  const negatives = [...clause.slice(0, at).matchAll(NEGATIVE_CUE)].map((m) => ({
    at: m.index,
    end: m.index + m[0].length,
  }));
  const positives = [...clause.slice(0, at).matchAll(POSITIVE_CUE)]
    .map((m) => ({ at: m.index, end: m.index + m[0].length }))
    .filter((cue) => !negatives.some((neg) => cue.at < neg.end && neg.at < cue.end));
  const lastNegative = Math.max(-1, ...negatives.map((cue) => cue.at));
  const lastPositive = Math.max(-1, ...positives.map((cue) => cue.at));
  return lastNegative > lastPositive;
}

/**
 * The sections a prompt names and whether it wants them or not: "only blog posts" includes
 * `/blog`, "the docs but not the API reference" includes the docs and excludes the reference,
 * "/guides/" is taken literally, "English pages" means `/en/`, "PDFs" means `.pdf` files.
 */
export function readPromptSections(text: string): { includePaths: string[]; excludePaths: string[] } {
  const include = new Set<string>();
  const exclude = new Set<string>();
  for (const clause of text.replace(HOSTS, (host) => ' '.repeat(host.length)).split(CLAUSES)) {
    for (const mention of mentionsIn(clause)) {
      (isNegated(clause, mention.at) ? exclude : include).add(mention.pattern);
    }
  }
  for (const pattern of exclude) include.delete(pattern);
  return { includePaths: [...include], excludePaths: [...exclude] };
}
