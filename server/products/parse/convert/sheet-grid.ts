import { DocumentProblem } from '../document-problem';

/** Cells of all the sheets of one workbook that may become table cells. */
export const MAX_WORKBOOK_CELLS = 1_000_000;
/**
 * Characters of cell text of one workbook (or CSV table). Counted as each cell is read, so that a
 * small file whose every row shows one long shared string is refused after a few megabytes of
 * text, not after the gigabyte its table would make.
 */
export const MAX_WORKBOOK_TEXT_CHARS = 16 * 1024 * 1024;

/** What the sheets of one workbook may still hold; every grid of the workbook draws on it. */
export interface WorkbookBudget {
  cells: number;
  /** Characters of cell text; absent means MAX_WORKBOOK_TEXT_CHARS. */
  chars?: number;
}

/** Charges one cell's text to the budget; throws once the workbook holds more than it allows. */
export function chargeText(budget: WorkbookBudget, text: string): void {
  budget.chars = (budget.chars ?? MAX_WORKBOOK_TEXT_CHARS) - text.length;
  if (budget.chars < 0) {
    throw new DocumentProblem(
      'archive-limit',
      `the table holds more than ${MAX_WORKBOOK_TEXT_CHARS} characters of text`,
    );
  }
}

/**
 * The non-empty cells of one sheet, sparse: a sheet with one value in A1 and one in XFD1048576
 * holds two cells here, and becomes a two-column table, not a grid of sixteen billion.
 */
export interface SheetGrid {
  set(row: number, column: number, value: string): void;
  /** Rows with a value, top to bottom, with only the columns that have a value somewhere. */
  rows(): string[][];
}

/** A grid that counts its cells and their text against `budget` (shared by the sheets of a workbook). */
export function createSheetGrid(budget: WorkbookBudget): SheetGrid {
  const cells = new Map<number, Map<number, string>>();
  const columns = new Set<number>();
  return {
    set(row, column, value) {
      if (value === '') return;
      let cellsOfRow = cells.get(row);
      if (cellsOfRow === undefined) cells.set(row, (cellsOfRow = new Map()));
      if (!cellsOfRow.has(column)) {
        budget.cells -= 1;
        if (budget.cells < 0) {
          throw new DocumentProblem(
            'archive-limit',
            `the workbook has more than ${MAX_WORKBOOK_CELLS} cells with values`,
          );
        }
      }
      chargeText(budget, value);
      cellsOfRow.set(column, value);
      columns.add(column);
    },
    rows() {
      const used = [...columns].sort((a, b) => a - b);
      if (used.length * cells.size > MAX_WORKBOOK_CELLS) {
        throw new DocumentProblem(
          'archive-limit',
          `a sheet would make a table of ${cells.size} rows by ${used.length} columns, more than ${MAX_WORKBOOK_CELLS} cells`,
        );
      }
      return [...cells.keys()]
        .sort((a, b) => a - b)
        .map((row) => used.map((column) => cells.get(row)?.get(column) ?? ''));
    },
  };
}
