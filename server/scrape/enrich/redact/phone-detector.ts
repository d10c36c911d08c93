import { RE2JS } from 're2js';
import { digitsOf } from './checksums';
import type { PiiSpan } from './pii-span';
import { anchorsOf, numberRegions, scanWindows, standsAloneAsNumber, windowsAround } from './pattern-scan';

/**
 * International form (E.164 written out): `+`, a country code, then groups of digits with at most
 * one separator (space, `.`, `-`) between them and an area code perhaps in parentheses:
 * `+1 (555) 010-4477`, `+44 20 7946 0958`, `+33 1 23 45 67 89`, `+4915112345678`.
 */
const INTERNATIONAL = RE2JS.compile('\\+[1-9][0-9]{0,3}(?:[ .-]?(?:\\([0-9]{1,5}\\)|[0-9]{1,6})){1,7}');

/**
 * North American form: `(555) 010-4477`, `555-010-4477`, `555.010.4477`, `555 010 4477`, with an
 * optional leading `1-`. The area code starts with 2–9, as every NANP area code does.
 */
const NORTH_AMERICAN = RE2JS.compile(
  '(?:1[ .-])?(?:\\([2-9][0-9]{2}\\) ?|[2-9][0-9]{2}[ .-])[0-9]{3}[ .-][0-9]{4}',
);

/**
 * National form with a trunk prefix, as most of Europe, the UK and much of the world write it:
 * `020 7946 0958`, `07700 900123`, `030 12345678`, `01 23 45 67 89`, `0612-345678`.
 */
const TRUNK_PREFIXED = RE2JS.compile('0[1-9][0-9]{0,4}(?:[ .-]?[0-9]{2,4}){1,4}');

/** Dialable numbers in links: `tel:+15550104477`, `tel:020-7946-0958`. */
const TEL_LINK = RE2JS.compile('(?i)tel:(\\+?[0-9().-]{6,24})');

/** Aggressive mode: ten bare digits shaped like a North American number (area and exchange 2–9). */
const BARE_NORTH_AMERICAN = RE2JS.compile('[2-9][0-9]{2}[2-9][0-9]{6}');

/** E.164 allows 15 digits at most; fewer than 7 is not a full number anywhere. */
const MAX_DIGITS = 15;

/**
 * Phone numbers in `text`: the written forms above, each standing alone (not part of a longer
 * number, a word, a date or a version), with a plausible count of digits. A bare run of digits is
 * not a phone number (it is an id, a timestamp, an amount) except in the aggressive mode.
 */
export function detectPhones(text: string, { aggressive = false }: { aggressive?: boolean } = {}): PiiSpan[] {
  const spans: PiiSpan[] = [];
  const add = (start: number, end: number) => spans.push({ start, end, entity: 'PHONE' });
  // Every written form lies in a stretch of digits, spaces, brackets, dots, dashes and pluses.
  const regions = numberRegions(text, 7);

  scanWindows(INTERNATIONAL, text, regions, (match) => {
    // A trailing group that takes the count past 15 digits belongs to what follows the number.
    let end = match.end;
    let candidate = match.text;
    while (digitsOf(candidate).length > MAX_DIGITS) {
      const cut = Math.max(
        candidate.lastIndexOf(' '),
        candidate.lastIndexOf('.'),
        candidate.lastIndexOf('-'),
      );
      if (cut <= 0) return;
      candidate = candidate.slice(0, cut);
      end = match.start + cut;
    }
    // `x+1` or `2+3` is arithmetic, not a number being dialled.
    if (digitsOf(candidate).length < 8 || !standsAloneAsNumber(text, match.start, end)) return;
    add(match.start, end);
  });
  scanWindows(NORTH_AMERICAN, text, regions, (match) => {
    if (standsAloneAsNumber(text, match.start, match.end) && consistentSeparators(match.text)) {
      add(match.start, match.end);
    }
  });
  scanWindows(TRUNK_PREFIXED, text, regions, (match) => {
    const digits = digitsOf(match.text).length;
    // A separator is required: a bare 0-prefixed run is an id as often as a number.
    const separated = /[ .-]/.test(match.text);
    if (!separated || digits < 9 || digits > 12 || !consistentSeparators(match.text)) return;
    if (!standsAloneAsNumber(text, match.start, match.end)) return;
    add(match.start, match.end);
  });
  const links = windowsAround(anchorsOf(text.toLowerCase(), ['tel:']), text.length, { before: 0, after: 30 });
  scanWindows(TEL_LINK, text, links, (match) => {
    const number = match.group(1);
    if (number !== undefined && digitsOf(number.text).length >= 6) add(number.start, number.end);
  });
  if (aggressive) {
    scanWindows(BARE_NORTH_AMERICAN, text, regions, (match) => {
      // `9999999999` is a placeholder or a limit, not a number anyone has.
      const oneDigit = match.text.split('').every((digit) => digit === match.text[0]);
      if (!oneDigit && standsAloneAsNumber(text, match.start, match.end)) add(match.start, match.end);
    });
  }
  return spans;
}

/**
 * One kind of separator between the groups (`555-010-4477`, `01 23 45 67 89`); a parenthesised
 * area code may be followed by a space. Mixed ones (`12.34-5678`) are more often versions,
 * coordinates or dates than numbers.
 */
function consistentSeparators(candidate: string): boolean {
  const separators = new Set(candidate.replace(/\([0-9]+\) ?/g, '').replace(/[0-9]/g, ''));
  return separators.size <= 1;
}
