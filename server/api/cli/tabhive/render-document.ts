import type { PageDocument } from './api-responses';

/**
 * What `tabhive scrape` prints for a document: the field of the one requested format (a document
 * names its fields after the formats) as it is, Markdown by default, lists one item a line, objects
 * as JSON; the whole document as JSON when several formats were asked for.
 */
export function renderDocument(document: PageDocument, formats: string[] | undefined): string {
  const wanted = formats ?? ['markdown'];
  const only = wanted.length === 1 ? wanted[0] : undefined;
  if (only === undefined) return JSON.stringify(document, null, 2);
  const value = (document as Record<string, unknown>)[only];
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join('\n');
  return JSON.stringify(value, null, 2);
}

/** The bytes of a `data:…;base64,` URL (a screenshot), or undefined for anything else. */
export function dataUrlBytes(text: string): Buffer | undefined {
  const match = /^data:[\w.+-]+\/[\w.+-]+;base64,([A-Za-z0-9+/=\s]*)$/.exec(text);
  return match === null ? undefined : Buffer.from(match[1] ?? '', 'base64');
}
