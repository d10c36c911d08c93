/**
 * Parts of a site a prompt names, and the URL path segments they usually live under. Longer
 * phrases come first, so "API reference" is read as the reference and not as docs.
 */
export const SECTIONS: ReadonlyArray<{ words: RegExp; slugs: readonly string[] }> = [
  {
    words: /\bapi[- ](?:reference|references|ref|docs|documentation)\b|\bapi\b|\breference docs\b/g,
    slugs: ['api', 'api-reference', 'reference'],
  },
  { words: /\brelease notes\b|\bchange ?logs?\b/g, slugs: ['changelog', 'release-notes', 'releases'] },
  { words: /\bcase stud(?:y|ies)\b/g, slugs: ['case-studies', 'customers'] },
  { words: /\bblogs?(?: posts?| articles?| entries)?\b/g, slugs: ['blog'] },
  { words: /\b(?:docs|documentation|doc pages|developer docs)\b/g, slugs: ['docs', 'documentation'] },
  { words: /\bguides?\b/g, slugs: ['guides'] },
  { words: /\btutorials?\b/g, slugs: ['tutorials'] },
  { words: /\bnews(?:room)?\b|\bpress releases?\b/g, slugs: ['news', 'press'] },
  { words: /\bpricing\b|\bprices\b|\bplans\b/g, slugs: ['pricing'] },
  { words: /\bcareers?\b|\bjobs?(?: postings?| listings?| openings?)?\b/g, slugs: ['careers', 'jobs'] },
  { words: /\babout(?: us)? pages?\b/g, slugs: ['about'] },
  { words: /\bcontact(?: us)? pages?\b/g, slugs: ['contact'] },
  { words: /\bfaqs?\b/g, slugs: ['faq'] },
  { words: /\b(?:help center|help pages|support pages|knowledge base)\b/g, slugs: ['help', 'support', 'kb'] },
  {
    words: /\bproducts?(?: pages?| listings?)?\b|\bshop\b|\bstore\b/g,
    slugs: ['products', 'product', 'shop'],
  },
  { words: /\bcategor(?:y|ies)(?: pages?)?\b/g, slugs: ['category', 'categories'] },
  { words: /\btag pages?\b|\btags\b/g, slugs: ['tag', 'tags'] },
  { words: /\bauthor pages?\b|\bauthors\b/g, slugs: ['author', 'authors'] },
  {
    words: /\blegal pages?\b|\bterms(?: of service)?\b|\bprivacy(?: policy)?\b/g,
    slugs: ['legal', 'terms', 'privacy'],
  },
  {
    words: /\blog ?in pages?\b|\bsign ?in pages?\b|\baccount pages?\b/g,
    slugs: ['login', 'signin', 'account'],
  },
  { words: /\bforums?\b|\bcommunity\b/g, slugs: ['forum', 'forums', 'community'] },
  { words: /\bexamples?\b/g, slugs: ['examples'] },
  { words: /\bevents?\b|\bwebinars?\b/g, slugs: ['events', 'webinars'] },
  { words: /\bpodcasts?\b|\bepisodes\b/g, slugs: ['podcast', 'episodes'] },
  { words: /\bvideos?\b/g, slugs: ['videos'] },
  { words: /\bintegrations?\b/g, slugs: ['integrations'] },
  { words: /\bresources\b/g, slugs: ['resources'] },
  { words: /\brecipes?\b/g, slugs: ['recipes'] },
];

/** Languages as path prefixes (`/en/…`), for "only the English pages". */
export const LANGUAGES: Readonly<Record<string, string>> = {
  english: 'en',
  french: 'fr',
  german: 'de',
  spanish: 'es',
  italian: 'it',
  portuguese: 'pt',
  dutch: 'nl',
  japanese: 'ja',
  chinese: 'zh',
  korean: 'ko',
  russian: 'ru',
  polish: 'pl',
  swedish: 'sv',
};

/** Words that look like a section in "only the X pages" but are not one. */
export const NOT_SECTIONS = new Set([
  'first',
  'last',
  'main',
  'top',
  'other',
  'same',
  'important',
  'relevant',
  'public',
  'html',
  'web',
  'new',
  'recent',
  'old',
  'few',
  'many',
  'more',
  'all',
  'some',
  'these',
  'those',
  'linked',
  'internal',
  'external',
  'subdomain',
  'the',
  'this',
  'that',
  'start',
  'starting',
  'home',
  'landing',
  'index',
  'sitemap',
  'unique',
  'and',
  'only',
  'just',
  'between',
  'per',
  'any',
  'such',
  'similar',
  'duplicate',
  'english',
  'single',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'twenty',
  'hundred',
  'thousand',
  'dozen',
]);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An unanchored path pattern for section slugs: `/(?:docs|documentation)(?:/|$)` matches `/docs`, `/en/docs/x`. */
export function sectionPattern(slugs: readonly string[]): string {
  const inner = slugs.map(escape).join('|');
  return slugs.length === 1 ? `/${inner}(?:/|$)` : `/(?:${inner})(?:/|$)`;
}

/** An anchored pattern for a path the prompt spells out: `/blog/2024` → `^/blog/2024(?:/|$)`. */
export function explicitPathPattern(path: string): string {
  const trimmed = path.replace(/\/+$/, '').replace(/\*+$/, '').replace(/\/+$/, '');
  return `^${escape(trimmed === '' ? '/' : trimmed)}(?:/|$)`;
}
