import type { OpenZip } from '../zip/open-zip';
import { DocumentProblem } from '../document-problem';
import { generalNumber, isDateFormat, serialToIso } from './excel-values';
import { escapeHtml, htmlDocument, htmlTable } from './html-text';
import { readDocumentProperties } from './read-document-properties';
import { mainPart, readRelationships } from './read-relationships';
import { MAX_WORKBOOK_CELLS, createSheetGrid } from './sheet-grid';
import { attribute, walkXml } from './walk-xml';

const MAX_SHEETS = 5_000;

interface SheetRef {
  name: string;
  part: string;
}

/** Every sheet of an XLSX workbook as a Markdown-ready table under a heading with the sheet's name. */
export function xlsxToHtml(zip: OpenZip, fallbackTitle: string): string {
  const workbookPart = mainPart(zip, 'xl/workbook.xml');
  const workbook = zip.read(workbookPart);
  if (workbook === undefined)
    throw new DocumentProblem('broken', 'the workbook part (xl/workbook.xml) is missing');
  const relationships = readRelationships(zip, workbookPart);
  const sheets: SheetRef[] = [];
  let date1904 = false;
  walkXml(workbook, workbookPart, {
    open(name, attributes) {
      if (name === 'workbookPr') date1904 = ['1', 'true'].includes(attribute(attributes, 'date1904') ?? '');
      if (name !== 'sheet') return;
      const target = relationships.get(attribute(attributes, 'r:id') ?? '');
      // A sheet listed twice is read once, and a workbook of more sheets than anyone keeps is refused.
      if (target === undefined || target.external || !zip.has(target.target)) return;
      if (sheets.some((sheet) => sheet.part === target.target)) return;
      if (sheets.length >= MAX_SHEETS) {
        throw new DocumentProblem('archive-limit', `the workbook has more than ${MAX_SHEETS} sheets`);
      }
      sheets.push({
        name: attribute(attributes, 'name') ?? `Sheet ${sheets.length + 1}`,
        part: target.target,
      });
    },
  });
  const sharedPart = [...relationships.values()].find((r) => r.type.endsWith('/sharedStrings'))?.target;
  const stylesPart = [...relationships.values()].find((r) => r.type.endsWith('/styles'))?.target;
  const strings = sharedPart === undefined ? [] : readSharedStrings(zip, sharedPart);
  const dateStyles = stylesPart === undefined ? new Set<number>() : readDateStyles(zip, stylesPart);
  const budget = { cells: MAX_WORKBOOK_CELLS };
  const body = sheets.map((sheet) => {
    const rows = readSheet(zip, sheet.part, { strings, dateStyles, date1904, budget });
    return `<h2>${escapeHtml(sheet.name)}</h2>\n${rows.length === 0 ? '<p>(empty sheet)</p>' : htmlTable(rows)}`;
  });
  const properties = readDocumentProperties(zip);
  return htmlDocument(body.join('\n'), { ...properties, title: properties.title ?? fallbackTitle });
}

/** The shared strings table: each `si`'s text runs joined, phonetic guides (`rPh`) left out. */
function readSharedStrings(zip: OpenZip, part: string): string[] {
  const bytes = zip.read(part);
  if (bytes === undefined) return [];
  const strings: string[] = [];
  let current: string | undefined;
  let inText = false;
  let inPhonetic = false;
  walkXml(bytes, part, {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 'rPh') inPhonetic = true;
      else if (name === 't') inText = !inPhonetic;
    },
    text(text) {
      if (inText && current !== undefined) current += text;
    },
    close(name) {
      if (name === 'si') {
        strings.push(current ?? '');
        current = undefined;
      } else if (name === 'rPh') inPhonetic = false;
      else if (name === 't') inText = false;
    },
  });
  return strings;
}

/** Indexes of the cell formats (`cellXfs`) whose number format shows a date or time. */
function readDateStyles(zip: OpenZip, part: string): Set<number> {
  const bytes = zip.read(part);
  const dateStyles = new Set<number>();
  if (bytes === undefined) return dateStyles;
  const codes = new Map<number, string>();
  let inCellFormats = false;
  let index = 0;
  walkXml(bytes, part, {
    open(name, attributes) {
      if (name === 'numFmt')
        codes.set(Number(attribute(attributes, 'numFmtId')), attribute(attributes, 'formatCode') ?? '');
      else if (name === 'cellXfs') inCellFormats = true;
      else if (name === 'xf' && inCellFormats) {
        const id = Number(attribute(attributes, 'numFmtId') ?? 0);
        if (isDateFormat(id, codes.get(id))) dateStyles.add(index);
        index += 1;
      }
    },
    close(name) {
      if (name === 'cellXfs') inCellFormats = false;
    },
  });
  return dateStyles;
}

interface SheetContext {
  strings: readonly string[];
  dateStyles: ReadonlySet<number>;
  date1904: boolean;
  budget: { cells: number };
}

/** `B12` → column 1; an absent or odd reference follows the previous cell. */
function columnOf(reference: string | undefined, previous: number): number {
  const letters = /^([A-Z]{1,3})\d*$/i.exec(reference ?? '')?.[1];
  if (letters === undefined) return previous + 1;
  let column = 0;
  for (const letter of letters.toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return column - 1;
}

function readSheet(zip: OpenZip, part: string, context: SheetContext): string[][] {
  const bytes = zip.read(part);
  if (bytes === undefined) return [];
  const grid = createSheetGrid(context.budget);
  let row = -1;
  let column = -1;
  let cell: { type: string; style: number; value: string; inlineText: string } | undefined;
  let reading: 'value' | 'inline' | undefined;
  let inPhonetic = false;
  walkXml(bytes, part, {
    open(name, attributes) {
      if (name === 'row') {
        const number = Number(attribute(attributes, 'r'));
        row = Number.isInteger(number) && number > 0 ? number - 1 : row + 1;
        column = -1;
      } else if (name === 'c') {
        column = columnOf(attribute(attributes, 'r'), column);
        cell = {
          type: attribute(attributes, 't') ?? 'n',
          style: Number(attribute(attributes, 's') ?? 0),
          value: '',
          inlineText: '',
        };
      } else if (name === 'v' && cell !== undefined) reading = 'value';
      else if (name === 'rPh') inPhonetic = true;
      else if (name === 't' && cell !== undefined && !inPhonetic) reading = 'inline';
    },
    text(text) {
      if (cell === undefined || reading === undefined) return;
      if (reading === 'value') cell.value += text;
      else cell.inlineText += text;
    },
    close(name) {
      if (name === 'v' || name === 't') reading = undefined;
      else if (name === 'rPh') inPhonetic = false;
      else if (name === 'c' && cell !== undefined) {
        grid.set(Math.max(row, 0), column, cellText(cell, context));
        cell = undefined;
      }
    },
  });
  return grid.rows();
}

function cellText(
  cell: { type: string; style: number; value: string; inlineText: string },
  { strings, dateStyles, date1904 }: SheetContext,
): string {
  switch (cell.type) {
    case 's':
      return strings[Number(cell.value)] ?? '';
    case 'inlineStr':
      return cell.inlineText;
    case 'b':
      return cell.value === '1' ? 'TRUE' : cell.value === '0' ? 'FALSE' : cell.value;
    case 'str':
    case 'e':
    case 'd':
      return cell.value;
    default: {
      if (cell.value === '') return cell.inlineText;
      const number = Number(cell.value);
      if (dateStyles.has(cell.style) && Number.isFinite(number)) return serialToIso(number, date1904);
      return generalNumber(cell.value);
    }
  }
}
