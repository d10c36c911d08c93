import type { RE2JS } from 're2js';

/** One match of a detector's pattern: the whole match and its groups, by index. */
export interface PatternMatch {
  start: number;
  end: number;
  text: string;
  group(index: number): { start: number; end: number; text: string } | undefined;
}

/**
 * Calls `visit` for each match of `pattern` in `text`, left to right, each search starting where
 * the previous match ended. Patterns run on RE2 (re2js): matching is linear in the text whatever
 * the page holds, which a backtracking engine cannot promise for patterns like an email's.
 */
export function scanPattern(pattern: RE2JS, text: string, visit: (match: PatternMatch) => void): void {
  const matcher = pattern.matcher(text);
  let from = 0;
  while (from <= text.length && matcher.find(from)) {
    const start = matcher.start();
    const end = matcher.end();
    visit({
      start,
      end,
      text: text.slice(start, end),
      group(index) {
        const groupStart = matcher.start(index);
        if (groupStart < 0) return undefined;
        const groupEnd = matcher.end(index);
        return { start: groupStart, end: groupEnd, text: text.slice(groupStart, groupEnd) };
      },
    });
    from = end > start ? end : start + 1;
  }
}

const code = (text: string, index: number) =>
  index < 0 || index >= text.length ? -1 : text.charCodeAt(index);

export const isDigitAt = (text: string, index: number) => {
  const c = code(text, index);
  return c >= 48 && c <= 57;
};

/** An ASCII letter, digit or `_` (what continues a token), or a non-ASCII letter. */
export const isWordCharAt = (text: string, index: number) => {
  const c = code(text, index);
  if (c < 0) return false;
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95) return true;
  return c > 127 && /\p{L}|\p{N}/u.test(text[index] ?? '');
};

/**
 * Whether `[start, end)` stands alone as a number: no letter, digit or `_` touches it, and no
 * `.`, `-`, `/` or `+` joins it to a digit next to it (`1.555-123-4567`, `555-123-4567-8` are parts
 * of something longer).
 */
export function standsAloneAsNumber(text: string, start: number, end: number): boolean {
  if (isWordCharAt(text, start - 1) || isWordCharAt(text, end)) return false;
  const joins = (index: number) => '.-/+'.includes(text[index] ?? ' ');
  if (joins(start - 1) && isDigitAt(text, start - 2)) return false;
  if (joins(end) && isDigitAt(text, end + 1)) return false;
  return true;
}

/** Where any of `needles` occurs in `haystack` (pass a lower-cased text for case-blind needles), ascending. */
export function anchorsOf(haystack: string, needles: readonly string[]): number[] {
  const anchors: number[] = [];
  for (const needle of needles) {
    for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) anchors.push(at);
  }
  return anchors.sort((a, b) => a - b);
}

/** Stretches `[anchor − before, anchor + after)` of a text of `length`, merged where they meet. */
export function windowsAround(
  anchors: readonly number[],
  length: number,
  { before, after }: { before: number; after: number },
): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  for (const anchor of anchors) {
    const start = Math.max(0, anchor - before);
    const end = Math.min(length, anchor + after);
    const last = windows.at(-1);
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else windows.push([start, end]);
  }
  return windows;
}

/**
 * scanPattern over parts of `text` only, with offsets into the whole text. RE2 is linear but not
 * fast in JavaScript (≈0.1 s per MB and pattern), and a page's raw HTML runs to megabytes: each
 * detector searches only around what its matches must contain (an `@`, a keyword, digits).
 * Windows must be wider than any match is long.
 */
export function scanWindows(
  pattern: RE2JS,
  text: string,
  windows: ReadonlyArray<readonly [number, number]>,
  visit: (match: PatternMatch) => void,
): void {
  for (const [from, to] of windows) {
    scanPattern(pattern, text.slice(from, to), (match) =>
      visit({
        start: match.start + from,
        end: match.end + from,
        text: match.text,
        group(index) {
          const group = match.group(index);
          return group === undefined
            ? undefined
            : { ...group, start: group.start + from, end: group.end + from };
        },
      }),
    );
  }
}

/** A character a written number may contain: digits, spaces, `(`, `)`, `.`, `-` and `+`. */
const isNumberChar = (c: number) =>
  (c >= 48 && c <= 57) || c === 32 || c === 40 || c === 41 || c === 46 || c === 45 || c === 43;

/**
 * Stretches of number characters holding at least `minDigits` digits, found by one pass over the
 * text: the only places phone numbers can be.
 */
export function numberRegions(text: string, minDigits: number): Array<[number, number]> {
  const regions: Array<[number, number]> = [];
  let start = -1;
  let digits = 0;
  for (let index = 0; index <= text.length; index++) {
    const c = index < text.length ? text.charCodeAt(index) : -1;
    if (c >= 0 && isNumberChar(c)) {
      if (start < 0) start = index;
      if (c >= 48 && c <= 57) digits++;
      continue;
    }
    if (start >= 0 && digits >= minDigits) regions.push([start, index]);
    start = -1;
    digits = 0;
  }
  return regions;
}
