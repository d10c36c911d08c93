import { deflateSync } from 'node:zlib';
import { zipOf } from '../fixtures/documents/office-documents';

/**
 * Documents that cost far more to read than to send, in small versions that keep tests fast but
 * have the shape of the real attacks: a PDF whose one content stream inflates to megabytes of text
 * operators, a PDF of thousands of pages sharing one content stream, and a workbook whose rows all
 * point at one long shared string.
 */

/** A PDF from its objects (1-based, in order), with a cross-reference table of their offsets. */
function pdfOf(objects: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      object,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(part);
    length += part.length;
  });
  const table =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  return Buffer.concat([...parts, Buffer.from(table, 'latin1')]);
}

const text = (value: string) => Buffer.from(value, 'latin1');

/** A stream object of `data` deflated `flateLayers` times, each layer named in its filter. */
function streamObject(data: Buffer, flateLayers: number): Buffer {
  let body = data;
  for (let layer = 0; layer < flateLayers; layer++) body = deflateSync(body, { level: 9 });
  const filter =
    flateLayers === 0
      ? ''
      : flateLayers === 1
        ? ' /Filter /FlateDecode'
        : ` /Filter [${Array.from({ length: flateLayers }, () => '/FlateDecode').join(' ')}]`;
  return Buffer.concat([text(`<< /Length ${body.length}${filter} >>\nstream\n`), body, text('\nendstream')]);
}

const FONT = text('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');

/**
 * A one-page PDF whose content stream inflates to `megabytes` MiB of text-showing operators,
 * deflated `flateLayers` times (a chain of Flate filters).
 */
export function flateBombPdf(megabytes: number, flateLayers = 1): Buffer {
  const unit = 'BT /F1 12 Tf 72 720 Td (AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA) Tj ET\n';
  // Buffer.alloc repeats the unit natively: hundreds of megabytes in a fraction of a second.
  const content = Buffer.alloc(Math.round(megabytes * 1024 * 1024), unit, 'latin1');
  return pdfOf([
    text('<< /Type /Catalog /Pages 2 0 R >>'),
    text('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    text(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    ),
    streamObject(content, flateLayers),
    FONT,
  ]);
}

/** A PDF of `pages` pages that all show one small content stream. */
export function manyPagesPdf(pages: number): Buffer {
  const first = 5;
  const kids = Array.from({ length: pages }, (_, index) => `${first + index} 0 R`).join(' ');
  const page = text(
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>',
  );
  return pdfOf([
    text('<< /Type /Catalog /Pages 2 0 R >>'),
    text(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`),
    streamObject(text('BT /F1 12 Tf 72 720 Td (hello page) Tj ET'), 0),
    FONT,
    ...Array.from({ length: pages }, () => page),
  ]);
}

const SHEET_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * An XLSX of `rows` rows of two cells that both show one shared string of `stringChars`
 * characters: a small file (the sheet packs well) whose table would be rows × 2 × stringChars
 * characters of text.
 */
export function longRowsXlsx(rows: number, stringChars = 2000): Buffer {
  const cells = Array.from(
    { length: rows },
    (_, index) =>
      `<row r="${index + 1}"><c r="A${index + 1}" t="s"><v>0</v></c><c r="Z${index + 1}" t="s"><v>0</v></c></row>`,
  ).join('');
  return zipOf({
    '[Content_Types].xml':
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    '_rels/.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0"?><workbook ${SHEET_NS} xmlns:r="${REL}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels':
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml': `<?xml version="1.0"?><worksheet ${SHEET_NS}><sheetData>${cells}</sheetData></worksheet>`,
    'xl/sharedStrings.xml': `<?xml version="1.0"?><sst ${SHEET_NS}><si><t>${'x'.repeat(stringChars)}</t></si></sst>`,
  });
}
