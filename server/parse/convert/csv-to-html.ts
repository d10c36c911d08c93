import { parse } from 'csv-parse/sync';
import { DocumentProblem } from '../document-problem';
import { htmlDocument, htmlTable } from './html-text';
import { MAX_WORKBOOK_CELLS } from './sheet-grid';

/** The delimiter of a CSV file: whichever of comma, semicolon and tab its first line has most of. */
function guessDelimiter(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, firstLine.split(delimiter).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

/** A CSV or TSV file (RFC 4180, by csv-parse) as one table, its first row the header. */
export function csvToHtml(text: string, kind: 'csv' | 'tsv', fallbackTitle: string): string {
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter: kind === 'tsv' ? '\t' : guessDelimiter(text),
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }) as string[][];
  } catch (err) {
    throw new DocumentProblem('broken', `the ${kind.toUpperCase()} is malformed (${(err as Error).message})`);
  }
  // The table is as wide as its widest row: every row is padded to it.
  const cells = rows.length * rows.reduce((widest, row) => Math.max(widest, row.length), 0);
  if (cells > MAX_WORKBOOK_CELLS) {
    throw new DocumentProblem(
      'archive-limit',
      `the table has ${cells} cells; at most ${MAX_WORKBOOK_CELLS} are converted`,
    );
  }
  return htmlDocument(htmlTable(rows), { title: fallbackTitle });
}
