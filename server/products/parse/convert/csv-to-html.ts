import { parse } from 'csv-parse/sync';
import { DocumentProblem } from '../document-problem';
import { htmlDocument, htmlTable } from './html-text';
import { MAX_WORKBOOK_CELLS, chargeText, type WorkbookBudget } from './sheet-grid';

/** The delimiter of a CSV file: whichever of comma, semicolon and tab its first line has most of. */
function guessDelimiter(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, firstLine.split(delimiter).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

/**
 * A CSV or TSV file (RFC 4180, by csv-parse) as one table, its first row the header. Cells and
 * their text are counted as each record is read, and the file is refused at the first record
 * past a limit rather than after all of it has been parsed.
 */
export function csvToHtml(text: string, kind: 'csv' | 'tsv', fallbackTitle: string): string {
  let rows: string[][];
  const budget: WorkbookBudget = { cells: MAX_WORKBOOK_CELLS };
  try {
    rows = parse(text, {
      delimiter: kind === 'tsv' ? '\t' : guessDelimiter(text),
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      on_record: (record: string[]) => {
        budget.cells -= record.length;
        if (budget.cells < 0) {
          throw new DocumentProblem(
            'archive-limit',
            `the table has more than ${MAX_WORKBOOK_CELLS} cells; at most ${MAX_WORKBOOK_CELLS} are converted`,
          );
        }
        for (const cell of record) chargeText(budget, cell);
        return record;
      },
    }) as string[][];
  } catch (err) {
    if (err instanceof DocumentProblem) throw err;
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
