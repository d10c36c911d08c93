import { tokenize } from './tokenize';

export interface PixelSize {
  width: number;
  height: number;
}

/**
 * A search query with its operators taken apart (Google's syntax, which SearXNG's engines, Bing
 * and DuckDuckGo understand too). Words are tokenized as the index tokenizes pages; operator
 * values keep their case-folded text.
 */
export interface ParsedQuery {
  /** Plain words: ranked, at least one must occur. */
  terms: string[];
  /** `"exact phrase"`: each must occur as written (word sequence). */
  phrases: string[][];
  /** `-word` and `-"phrase"`: none may occur. */
  excludedTerms: string[];
  excludedPhrases: string[][];
  /** `site:host[/path]`: the result must be on one of them (several are alternatives, as with OR). */
  sites: string[];
  /** `-site:host` */
  excludedSites: string[];
  /** `inurl:` and `allinurl:` words: each must occur in the URL. */
  inUrl: string[];
  /** `intitle:` and `allintitle:` words: each must occur in the title. */
  inTitle: string[];
  /** `filetype:pdf` (also `ext:`): the URL's path must end in one of them. */
  fileTypes: string[];
  /** `related:url`: pages like this one. */
  related?: string;
  /** `imagesize:WxH`: images of exactly this size. */
  imageSize?: PixelSize;
  /** `larger:WxH`: images at least this large. */
  larger?: PixelSize;
}

/** A token of the query: an optional `-`, an optional `operator:`, and a word or a quoted phrase. */
const TOKEN = /(-)?(?:([a-z]+):)?(?:"([^"]*)"?|([^\s"()]*))/giy;

const SIZE = /^(\d{1,5})x(\d{1,5})$/i;

function pixelSize(value: string): PixelSize | undefined {
  const match = SIZE.exec(value);
  return match === null ? undefined : { width: Number(match[1]), height: Number(match[2]) };
}

/** `Site:Example.com/Docs/` → `example.com/docs`, without scheme and `www.`, the way hosts are compared. */
export function normalizeSite(value: string): string {
  return value
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
}

const OPERATORS = new Set([
  'site',
  'inurl',
  'allinurl',
  'intitle',
  'allintitle',
  'related',
  'imagesize',
  'larger',
  'filetype',
  'ext',
]);

/**
 * Takes a query apart into words, phrases and operators. Parentheses and `OR`/`|` only group
 * alternatives, which the index treats as "any of" anyway, so they are skipped. An unknown
 * `word:thing` is an ordinary word pair, as engines treat it.
 */
export function parseQuery(query: string): ParsedQuery {
  const parsed: ParsedQuery = {
    terms: [],
    phrases: [],
    excludedTerms: [],
    excludedPhrases: [],
    sites: [],
    excludedSites: [],
    inUrl: [],
    inTitle: [],
    fileTypes: [],
  };
  /** After `allinurl:` / `allintitle:` every later word belongs to that operator. */
  let allIn: 'inUrl' | 'inTitle' | undefined;
  let position = 0;
  while (position < query.length) {
    const char = query[position]!;
    if (/\s|[()|]/.test(char)) {
      position += 1;
      continue;
    }
    TOKEN.lastIndex = position;
    const match = TOKEN.exec(query);
    if (match === null || match[0] === '') {
      position += 1;
      continue;
    }
    position = TOKEN.lastIndex;
    const negated = match[1] === '-';
    const rawOperator = match[2]?.toLowerCase();
    const phrase = match[3];
    const word = match[4] ?? '';
    const operator = rawOperator !== undefined && OPERATORS.has(rawOperator) ? rawOperator : undefined;
    // `foo:bar` with an unknown operator is plain text.
    const text =
      phrase ?? (rawOperator !== undefined && operator === undefined ? `${match[2]}:${word}` : word);

    if (operator === undefined) {
      if (!negated && phrase === undefined && (text === 'OR' || text === 'AND')) continue;
      const words = tokenize(text);
      if (words.length === 0) continue;
      if (allIn !== undefined && !negated) {
        parsed[allIn].push(...words);
      } else if (phrase !== undefined || words.length > 1) {
        (negated ? parsed.excludedPhrases : parsed.phrases).push(words);
      } else {
        (negated ? parsed.excludedTerms : parsed.terms).push(words[0]!);
      }
      continue;
    }
    const value = text.trim();
    switch (operator) {
      case 'site':
        if (value !== '') (negated ? parsed.excludedSites : parsed.sites).push(normalizeSite(value));
        break;
      case 'inurl':
      case 'intitle': {
        const key = operator === 'inurl' ? 'inUrl' : 'inTitle';
        if (negated) parsed.excludedTerms.push(...tokenize(value));
        else parsed[key].push(...tokenize(value));
        break;
      }
      case 'allinurl':
      case 'allintitle':
        allIn = operator === 'allinurl' ? 'inUrl' : 'inTitle';
        parsed[allIn].push(...tokenize(value));
        break;
      case 'related':
        if (value !== '') parsed.related = value;
        break;
      case 'imagesize': {
        const size = pixelSize(value);
        if (size !== undefined) parsed.imageSize = size;
        break;
      }
      case 'larger': {
        const size = pixelSize(value);
        if (size !== undefined) parsed.larger = size;
        break;
      }
      case 'filetype':
      case 'ext':
        if (value !== '') parsed.fileTypes.push(value.toLowerCase().replace(/^\./, ''));
        break;
    }
  }
  return parsed;
}
