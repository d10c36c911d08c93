import { DocumentProblem } from '../document-problem';

/** Cells of all the sheets of one workbook that may become table cells. */
export const MAX_WORKBOOK_CELLS = 1_000_000;

/**
 * The non-empty cells of one sheet, sparse: a sheet with one value in A1 and one in XFD1048576
 * holds two cells here, and becomes a two-column table, not a grid of sixteen billion.
 */
export interface SheetGrid {
  set(row: number, column: number, value: string): void;
  /** Rows with a value, top to bottom, with only the columns that have a value somewhere. */
  rows(): string[][];
}

/** A grid that counts its cells against `budget` (shared by the sheets of a workbook). */
export function createSheetGrid(budget: { cells: number }): SheetGrid {
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
