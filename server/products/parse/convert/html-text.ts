/** Text made safe for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Document properties that become the HTML head, where the scrape pipeline reads its metadata. */
export interface DocumentProperties {
  title?: string | undefined;
  author?: string | undefined;
  description?: string | undefined;
}

/** A whole HTML document around `body`, with the document's own properties in its head. */
export function htmlDocument(body: string, properties: DocumentProperties = {}): string {
  const head = [
    '<meta charset="utf-8">',
    ...(properties.title ? [`<title>${escapeHtml(properties.title)}</title>`] : []),
    ...(properties.author ? [`<meta name="author" content="${escapeHtml(properties.author)}">`] : []),
    ...(properties.description
      ? [`<meta name="description" content="${escapeHtml(properties.description)}">`]
      : []),
  ];
  return `<!DOCTYPE html>\n<html><head>${head.join('')}</head><body>\n${body}\n</body></html>`;
}

/**
 * A table of rows (the first row as its header, which GitHub-flavoured Markdown tables need),
 * rows padded to the widest so that every Markdown row has the same cells.
 */
export function htmlTable(rows: ReadonlyArray<ReadonlyArray<string>>): string {
  if (rows.length === 0) return '';
  const width = rows.reduce((widest, row) => Math.max(widest, row.length), 1);
  const cells = (row: ReadonlyArray<string>, tag: 'th' | 'td') =>
    Array.from({ length: width }, (_, index) => `<${tag}>${cellHtml(row[index] ?? '')}</${tag}>`).join('');
  const [header = [], ...body] = rows;
  return (
    `<table><thead><tr>${cells(header, 'th')}</tr></thead>` +
    `<tbody>${body.map((row) => `<tr>${cells(row, 'td')}</tr>`).join('')}</tbody></table>`
  );
}

/** A cell's text; its line breaks become <br>, which stay inside one Markdown table row. */
function cellHtml(text: string): string {
  return escapeHtml(text.trim()).replace(/\r?\n/g, '<br>');
}
