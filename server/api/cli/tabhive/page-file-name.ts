import { createHash } from 'node:crypto';

/** Longest base name, leaving room for `-NN.md` within the usual 255-byte file-name limit. */
const MAX_BASE_LENGTH = 120;
const PAGE_EXTENSION = /\.(html?|php|aspx?|jsp)$/i;

/**
 * A readable file name (without `.md`) for a page in an --out-dir folder: its path with `/` as
 * `_`, `index` for a root or folder page, the host in front when the page is on another host than
 * the crawl's start, and a short hash of the query string when there is one (so `?page=2` is not
 * `?page=3`). Only letters, digits, `.`, `-` and `_`, never a leading dot.
 */
export function pageFileName(pageUrl: string, startHost: string | undefined): string {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return `page-${shortHash(pageUrl)}`;
  }
  const segments = decodeURIComponentSafe(url.pathname)
    .split('/')
    .filter((segment) => segment !== '');
  if (url.pathname.endsWith('/') || segments.length === 0) segments.push('index');
  const last = segments.length - 1;
  segments[last] = (segments[last] ?? 'index').replace(PAGE_EXTENSION, '') || 'index';
  if (startHost !== undefined && url.host !== startHost) segments.unshift(url.host);
  let base = segments
    .join('_')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^[.-]+/, '')
    .slice(0, MAX_BASE_LENGTH);
  if (url.search !== '') base = `${base}-${shortHash(url.search)}`;
  return base === '' ? `page-${shortHash(pageUrl)}` : base;
}

/** `base`, or `base-2`, `base-3`, … : the first that `taken` lacks (compared case-insensitively, for macOS and Windows). */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
