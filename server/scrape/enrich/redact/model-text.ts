import { withoutEscapes } from './markdown-escapes';

/** Fields whose strings are not prose for the model: markup, images, URLs, our own warning. */
const NOT_PROSE = new Set([
  'html',
  'rawHtml',
  'screenshot',
  'warning',
  'links',
  'images',
  'actions',
  'branding',
  'metadata',
]);
/** The metadata that is prose. */
const PROSE_METADATA = ['title', 'description', 'ogTitle', 'ogDescription'];

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) collectStrings(item, into);
  }
}

/**
 * The document's prose, for the model that finds names: title and description, the Markdown (or,
 * without it, the text of the HTML), and every other text output (summary, json values, answers).
 */
export function modelText(document: Record<string, unknown>): string {
  const parts: string[] = [];
  const metadata = document.metadata;
  if (typeof metadata === 'object' && metadata !== null) {
    for (const key of PROSE_METADATA) {
      const value = (metadata as Record<string, unknown>)[key];
      if (typeof value === 'string' && !parts.includes(value)) parts.push(value);
    }
  }
  for (const [key, value] of Object.entries(document)) {
    if (!NOT_PROSE.has(key)) collectStrings(value, parts);
  }
  // The model reads `Ada\_Lovelace` as it is meant, and names it as the redaction will look for it.
  for (let index = 0; index < parts.length; index++) parts[index] = withoutEscapes(parts[index]!).view;
  if (typeof document.markdown !== 'string') {
    const html = typeof document.html === 'string' ? document.html : document.rawHtml;
    if (typeof html === 'string') parts.push(textOfHtml(html));
  }
  return parts.filter((part) => part.trim() !== '').join('\n\n');
}

/**
 * The text of HTML, by one pass over it: tags dropped, script and style contents skipped, entities
 * left as they are (names are looked for again in the HTML as written).
 */
export function textOfHtml(html: string): string {
  const lower = html.toLowerCase();
  const out: string[] = [];
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open < 0) {
      out.push(html.slice(at));
      break;
    }
    out.push(html.slice(at, open));
    let close = html.indexOf('>', open);
    if (close < 0) break;
    for (const raw of ['script', 'style']) {
      if (lower.startsWith(raw, open + 1)) {
        const end = lower.indexOf(`</${raw}`, close);
        close = end < 0 ? html.length : Math.max(close, lower.indexOf('>', end));
        if (close < 0) close = html.length;
      }
    }
    out.push(' ');
    at = close + 1;
  }
  return out.join('').replace(/\s+/g, ' ').trim();
}
