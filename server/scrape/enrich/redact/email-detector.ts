import { RE2JS } from 're2js';
import type { PiiSpan } from './pii-span';
import { anchorsOf, isWordCharAt, scanWindows, windowsAround } from './pattern-scan';

/**
 * An address: a local part of up to 64 characters, `@` (or `%40`, as in a URL's query), and a
 * domain of labels ending in a top-level domain of letters.
 */
const EMAIL = RE2JS.compile(
  '[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}(?:@|%40)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,24}',
);

/**
 * `name at example dot com`, `name [at] example [dot] com`: how pages hide addresses from
 * harvesters. Looked for in the aggressive mode only (`at` and `dot` are ordinary words).
 */
const SPELLED_EMAIL = RE2JS.compile(
  '(?i)[a-z0-9][a-z0-9._+-]{0,63}\\s*(?:\\[at\\]|\\(at\\)|\\{at\\}|\\sat\\s)\\s*[a-z0-9-]{1,63}(?:\\s*(?:\\[dot\\]|\\(dot\\)|\\{dot\\}|\\sdot\\s|\\.)\\s*[a-z0-9-]{1,63}){1,4}',
);

/**
 * `icon@2x.png` is a file for high-density screens, not an address: a "top-level domain" that is a
 * file type makes the candidate a file name.
 */
const FILE_TYPES = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'svg',
  'webp',
  'avif',
  'ico',
  'bmp',
  'tif',
  'tiff',
  'css',
  'js',
  'mjs',
  'cjs',
  'ts',
  'json',
  'xml',
  'htm',
  'html',
  'php',
  'txt',
  'pdf',
  'zip',
  'gz',
  'mp4',
  'mp3',
  'webm',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  'map',
]);

/** Email addresses in `text`: searched around each `@` (or `%40`), as far as an address can reach. */
export function detectEmails(text: string, { aggressive = false }: { aggressive?: boolean } = {}): PiiSpan[] {
  const spans: PiiSpan[] = [];
  const around = windowsAround(anchorsOf(text, ['@', '%40']), text.length, { before: 66, after: 260 });
  scanWindows(EMAIL, text, around, (match) => {
    const tld = match.text.slice(match.text.lastIndexOf('.') + 1).toLowerCase();
    if (FILE_TYPES.has(tld) || isWordCharAt(text, match.end)) return;
    spans.push({ start: match.start, end: match.end, entity: 'EMAIL' });
  });
  if (aggressive) {
    const markers = anchorsOf(text.toLowerCase(), ['[at]', '(at)', '{at}', ' at ']);
    scanWindows(
      SPELLED_EMAIL,
      text,
      windowsAround(markers, text.length, { before: 70, after: 330 }),
      (match) => {
        // Plain prose ("meet at noon. Then …") has no bracketed markers and rarely a spelled "dot".
        if (!/\[at\]|\(at\)|\{at\}|\sdot\s|\[dot\]|\(dot\)|\{dot\}/i.test(match.text)) return;
        spans.push({ start: match.start, end: match.end, entity: 'EMAIL' });
      },
    );
  }
  return spans;
}
