/** Longest file name stem the popup suggests; file systems allow 255 bytes, people read far fewer. */
const MAX_STEM_CHARS = 80;

/**
 * A file name for something saved from a page: its title (or, without one, its host and path)
 * reduced to characters every file system accepts, plus `extension`. Never empty.
 */
export function downloadName(title: string, url: string, extension: string): string {
  const stem = slug(title) || slug(urlWords(url)) || 'page';
  return `${stem.slice(0, MAX_STEM_CHARS).replace(/-+$/, '')}.${extension}`;
}

function slug(text: string): string {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      // Letters and digits of any script stay; everything else (slashes, quotes, emoji…) separates words.
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
  );
}

function urlWords(url: string): string {
  try {
    const { hostname, pathname } = new URL(url);
    return `${hostname.replace(/^www\./, '')} ${pathname}`;
  } catch {
    return '';
  }
}
