import type { OpenZip } from '../zip/open-zip';
import { DocumentProblem } from '../document-problem';
import { escapeHtml, htmlDocument, htmlTable } from './html-text';
import { readDocumentProperties } from './read-document-properties';
import { MAX_WORKBOOK_CELLS, createSheetGrid, type SheetGrid } from './sheet-grid';
import { attribute, walkXml } from './walk-xml';

/**
 * Copies of one repeated row or cell that are written out. Spreadsheets end their sheets with a
 * row repeated a million times and rows with a cell repeated sixteen thousand times; empty ones
 * only move the position, and a repeated value is written at most this often.
 */
const MAX_REPEAT = 1000;

const repeatOf = (value: string | undefined) => {
  const count = Number(value ?? 1);
  return Number.isInteger(count) && count > 0 ? count : 1;
};

/** Every table of an ODF spreadsheet (content.xml, ODF 1.3 §9.1) under a heading with its name. */
export function odsToHtml(zip: OpenZip, fallbackTitle: string): string {
  const content = zip.read('content.xml');
  if (content === undefined) throw new DocumentProblem('broken', 'the spreadsheet has no content.xml');
  const budget = { cells: MAX_WORKBOOK_CELLS };
  const sections: string[] = [];
  let table: { name: string; grid: SheetGrid } | undefined;
  let row = 0;
  let rowRepeat = 1;
  let rowCells: Array<{ column: number; repeat: number; text: string }> = [];
  let column = 0;
  let cell: { repeat: number; paragraphs: string[] } | undefined;
  let paragraph: string | undefined;
  /** Annotations (comments) sit inside cells; their text is not the cell's. */
  let annotationDepth = 0;
  /** A table inside a cell (a sub-table) adds its text to that cell. */
  let tableDepth = 0;

  walkXml(content, 'content.xml', {
    open(name, attributes) {
      if (annotationDepth > 0 || name === 'annotation') {
        if (name === 'annotation') annotationDepth += 1;
        return;
      }
      if (name === 'table') tableDepth += 1;
      if (name === 'table' && tableDepth === 1) {
        table = {
          name: attribute(attributes, 'table:name') ?? `Sheet ${sections.length + 1}`,
          grid: createSheetGrid(budget),
        };
        row = 0;
      } else if (name === 'table-row' && table !== undefined && tableDepth === 1) {
        rowRepeat = repeatOf(attribute(attributes, 'table:number-rows-repeated'));
        rowCells = [];
        column = 0;
      } else if (
        (name === 'table-cell' || name === 'covered-table-cell') &&
        table !== undefined &&
        tableDepth === 1
      ) {
        cell = { repeat: repeatOf(attribute(attributes, 'table:number-columns-repeated')), paragraphs: [] };
      } else if ((name === 'p' || name === 'h') && cell !== undefined) {
        paragraph = '';
      } else if (paragraph !== undefined) {
        if (name === 's') paragraph += ' '.repeat(Math.min(repeatOf(attribute(attributes, 'text:c')), 100));
        else if (name === 'tab') paragraph += '\t';
        else if (name === 'line-break') paragraph += '\n';
      }
    },
    text(text) {
      if (annotationDepth === 0 && paragraph !== undefined) paragraph += text;
    },
    close(name) {
      if (annotationDepth > 0) {
        if (name === 'annotation') annotationDepth -= 1;
        return;
      }
      if ((name === 'p' || name === 'h') && cell !== undefined && paragraph !== undefined) {
        cell.paragraphs.push(paragraph);
        paragraph = undefined;
      } else if (
        (name === 'table-cell' || name === 'covered-table-cell') &&
        cell !== undefined &&
        tableDepth === 1
      ) {
        const text = cell.paragraphs.join('\n');
        if (text.trim() !== '') rowCells.push({ column, repeat: Math.min(cell.repeat, MAX_REPEAT), text });
        column += cell.repeat;
        cell = undefined;
      } else if (name === 'table-row' && table !== undefined && tableDepth === 1) {
        const copies = rowCells.length === 0 ? 0 : Math.min(rowRepeat, MAX_REPEAT);
        for (let copy = 0; copy < copies; copy += 1) {
          for (const { column: first, repeat, text } of rowCells) {
            for (let offset = 0; offset < repeat; offset += 1)
              table.grid.set(row + copy, first + offset, text);
          }
        }
        row += rowRepeat;
      } else if (name === 'table' && tableDepth > 1) {
        tableDepth -= 1;
      } else if (name === 'table' && table !== undefined) {
        tableDepth = 0;
        const rows = table.grid.rows();
        sections.push(
          `<h2>${escapeHtml(table.name)}</h2>\n${rows.length === 0 ? '<p>(empty sheet)</p>' : htmlTable(rows)}`,
        );
        table = undefined;
      }
    },
  });
  const properties = readDocumentProperties(zip);
  return htmlDocument(sections.join('\n'), { ...properties, title: properties.title ?? fallbackTitle });
}
