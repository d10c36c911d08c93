import { RE2JS } from 're2js';
import { abaRoutingValid, digitsOf, IBAN_LENGTHS, ibanValid, luhnValid } from './checksums';
import type { PiiSpan } from './pii-span';
import {
  anchorsOf,
  isWordCharAt,
  numberRegions,
  scanWindows,
  standsAloneAsNumber,
  windowsAround,
} from './pattern-scan';

/** Runs of digit groups joined by single spaces or dashes: where card numbers are looked for. */
const DIGIT_GROUPS = RE2JS.compile('[0-9]+(?:[ -][0-9]+)*');

/** A country code, check digits, then the account in letters and digits, grouped by spaces or not. */
const IBAN = RE2JS.compile('[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]){11,30}');

/** `Routing number: 021000021`, `ABA #021000021`, `RTN 021000021`. */
const ROUTING = RE2JS.compile('(?i)\\b(?:routing|aba|rtn)(?: (?:number|no\\.?|#))?\\s*[:#]?\\s*([0-9]{9})');

/** `Account number: 12345678`, `Acct. no 000123456789`: an account needs its label to be told from any number. */
const ACCOUNT = RE2JS.compile(
  '(?i)\\b(?:account|acct\\.?)\\s*(?:number|no\\.?|#)\\s*[:#]?\\s*([0-9](?:[ -]?[0-9]){5,16})',
);

const CARD_MIN_DIGITS = 13;
const BLOCK_LENGTHS = new Set([15, 16]);

/**
 * Payment cards (an issuer's prefix and length, the Luhn check, written whole or grouped as cards
 * are printed), IBANs
 * (a known country's length and the mod-97 check), and US routing and account numbers that say
 * what they are.
 */
export function detectFinancial(text: string): PiiSpan[] {
  const spans: PiiSpan[] = [];
  scanWindows(DIGIT_GROUPS, text, numberRegions(text, CARD_MIN_DIGITS), (match) => {
    if (match.end - match.start < CARD_MIN_DIGITS) return;
    for (const card of cardsInGroups(match.text)) {
      const start = match.start + card.start;
      const end = match.start + card.end;
      if (standsAloneAsNumber(text, start, end)) spans.push({ start, end, entity: 'FINANCIAL' });
    }
  });
  scanWindows(IBAN, text, windowsAround(ibanStarts(text), text.length, { before: 0, after: 45 }), (match) => {
    const length = IBAN_LENGTHS[match.text.slice(0, 2)];
    if (length === undefined || isWordCharAt(text, match.start - 1)) return;
    // The candidate may run on into the next word; the IBAN is the country's length of it.
    let seen = 0;
    let end = match.start;
    while (end < match.end && seen < length) {
      if (text[end] !== ' ') seen++;
      end++;
    }
    if (seen !== length || isWordCharAt(text, end)) return;
    if (ibanValid(text.slice(match.start, end).replace(/ /g, ''))) {
      spans.push({ start: match.start, end, entity: 'FINANCIAL' });
    }
  });
  const lower = text.toLowerCase();
  for (const [pattern, needles, valid] of [
    [ROUTING, ['routing', 'aba', 'rtn'], abaRoutingValid],
    [ACCOUNT, ['account', 'acct'], () => true],
  ] as const) {
    const around = windowsAround(anchorsOf(lower, needles), text.length, { before: 1, after: 90 });
    scanWindows(pattern, text, around, (match) => {
      const number = match.group(1);
      if (number === undefined || isWordCharAt(text, number.end) || !valid(digitsOf(number.text))) return;
      spans.push({ start: number.start, end: number.end, entity: 'FINANCIAL' });
    });
  }
  return spans;
}

/** Where an IBAN could start: a country that has IBANs, then two digits. */
function ibanStarts(text: string): number[] {
  const starts: number[] = [];
  const upper = (c: number) => c >= 65 && c <= 90;
  const digit = (c: number) => c >= 48 && c <= 57;
  for (let index = 0; index + 3 < text.length; index++) {
    if (!upper(text.charCodeAt(index)) || !upper(text.charCodeAt(index + 1))) continue;
    if (!digit(text.charCodeAt(index + 2)) || !digit(text.charCodeAt(index + 3))) continue;
    if (IBAN_LENGTHS[text.slice(index, index + 2)] !== undefined) starts.push(index);
  }
  return starts;
}

/**
 * Issuer prefixes (IIN ranges) and the lengths their cards have: Visa, Mastercard, American
 * Express, Discover, Diners Club, JCB, UnionPay and Maestro. A Luhn-valid number of another shape
 * (a 14-digit product id starting with 4) is not a card.
 */
const ISSUERS: ReadonlyArray<{ from: number; to: number; digits: number; lengths: readonly number[] }> = [
  { from: 4, to: 4, digits: 1, lengths: [13, 16, 19] },
  { from: 51, to: 55, digits: 2, lengths: [16] },
  { from: 2221, to: 2720, digits: 4, lengths: [16] },
  { from: 34, to: 34, digits: 2, lengths: [15] },
  { from: 37, to: 37, digits: 2, lengths: [15] },
  { from: 6011, to: 6011, digits: 4, lengths: [16, 17, 18, 19] },
  { from: 644, to: 649, digits: 3, lengths: [16, 17, 18, 19] },
  { from: 65, to: 65, digits: 2, lengths: [16, 17, 18, 19] },
  { from: 300, to: 305, digits: 3, lengths: [14, 16] },
  { from: 36, to: 36, digits: 2, lengths: [14, 16] },
  { from: 38, to: 39, digits: 2, lengths: [14, 16] },
  { from: 3528, to: 3589, digits: 4, lengths: [16, 17, 18, 19] },
  { from: 62, to: 62, digits: 2, lengths: [16, 17, 18, 19] },
  { from: 50, to: 50, digits: 2, lengths: [13, 14, 15, 16, 17, 18, 19] },
  { from: 56, to: 58, digits: 2, lengths: [13, 14, 15, 16, 17, 18, 19] },
];

function issuedLength(digits: string): boolean {
  return ISSUERS.some(({ from, to, digits: prefix, lengths }) => {
    const iin = Number(digits.slice(0, prefix));
    return iin >= from && iin <= to && lengths.includes(digits.length);
  });
}

/**
 * How card numbers are printed in groups: 4-4-4-4 (most), 4-4-4-4-3 (19 digits), 4-6-5 (Amex),
 * 4-6-4 (Diners), 4-4-4-3 and 4-4-4-1 (15 and 13 digits). Other groupings are other numbers.
 */
const CARD_GROUPINGS: ReadonlyArray<readonly number[]> = [
  [4, 4, 4, 4],
  [4, 4, 4, 4, 3],
  [4, 6, 5],
  [4, 6, 4],
  [4, 4, 4, 3],
  [4, 4, 4, 1],
];

/**
 * Card numbers among the groups of one run (`Order 12345 4111 1111 1111 1111`): one block of
 * 15 or 16 digits, or consecutive groups printed as a card is (CARD_GROUPINGS). Offsets are
 * within the run.
 */
function cardsInGroups(run: string): Array<{ start: number; end: number }> {
  const groups: Array<{ start: number; end: number }> = [];
  for (let index = 0; index < run.length;) {
    let end = index;
    while (end < run.length && run[end] !== ' ' && run[end] !== '-') end++;
    groups.push({ start: index, end });
    index = end + 1;
  }
  const size = (index: number) =>
    groups[index] === undefined ? -1 : groups[index].end - groups[index].start;
  const isCard = (digits: string) => issuedLength(digits) && luhnValid(digits);
  const found: Array<{ start: number; end: number }> = [];
  for (let first = 0; first < groups.length; first++) {
    const start = groups[first]!.start;
    const block = run.slice(start, groups[first]!.end);
    // Written as one block, a card has 15 or 16 digits; other lengths in one block are ids far more
    // often (shops' 14-digit product ids pass Diners Club's prefix and Luhn one time in ten).
    if (BLOCK_LENGTHS.has(block.length) && isCard(block)) {
      found.push({ start, end: groups[first]!.end });
      continue;
    }
    for (const grouping of CARD_GROUPINGS) {
      if (!grouping.every((expected, offset) => size(first + offset) === expected)) continue;
      const last = first + grouping.length - 1;
      if (!isCard(digitsOf(run.slice(start, groups[last]!.end)))) continue;
      found.push({ start, end: groups[last]!.end });
      first = last;
      break;
    }
  }
  return found;
}
