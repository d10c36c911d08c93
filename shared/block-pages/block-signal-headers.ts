/**
 * The response headers that say an anti-bot system or rate limiter answered (docs/browser-control.md,
 * "Blocked pages and challenges"). Captures carry only these, lower-cased: enough to recognise a
 * block page, and nothing of the site's cookies or the caller's session.
 */
export const BLOCK_SIGNAL_HEADERS = [
  'server',
  'cf-mitigated',
  'cf-ray',
  'x-datadome',
  'x-dd-b',
  'x-iinfo',
  'x-cdn',
  'akamai-grn',
  'x-px-block',
  'retry-after',
] as const;

const WANTED = new Set<string>(BLOCK_SIGNAL_HEADERS);

/** The block-signal headers among `headers` (any casing; repeated values joined with ", "). */
export function pickBlockSignalHeaders(
  headers: Iterable<readonly [string, string | readonly string[] | undefined]>,
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    if (!WANTED.has(key) || value === undefined) continue;
    const text = typeof value === 'string' ? value : value.join(', ');
    picked[key] = picked[key] === undefined ? text : `${picked[key]}, ${text}`;
  }
  return picked;
}
