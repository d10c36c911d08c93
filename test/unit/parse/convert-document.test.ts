import { describe, expect, it } from 'vitest';
import { deriveFormats } from '../../../shared/formats/derive-formats';
import { type Converted, convertDocument } from '../../../server/products/parse/convert/convert-document';
import { DocumentProblem } from '../../../server/products/parse/document-problem';
import type { FileKind } from '../../../server/products/parse/file-kinds';
import { DEFAULT_ZIP_LIMITS } from '../../../server/products/parse/zip/zip-limits';
import { docx, ods, pptx, xlsx, zipOf } from '../../fixtures/documents/office-documents';
import { minimalPdf } from '../../helpers/minimal-pdf';

const convert = (kind: FileKind, bytes: Uint8Array) =>
  convertDocument({ bytes, kind, title: 'fallback title', zipLimits: DEFAULT_ZIP_LIMITS });

/** The Markdown the scrape pipeline makes of converted HTML (the whole document, as parse asks). */
function markdownOf(converted: Converted): string {
  if (converted.as !== 'html') throw new Error(`expected HTML, got ${converted.as}`);
  const capture = {
    url: 'https://upload.invalid/x',
    statusCode: 200,
    rawHtml: converted.html,
    renderedHtml: converted.html,
  };
  return (
    deriveFormats(capture, {
      formats: new Set(['markdown']),
      onlyMainContent: false,
      removeBase64Images: true,
    }).markdown ?? ''
  );
}

async function problemOf(work: Promise<unknown>): Promise<DocumentProblem> {
  const outcome = await work.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (outcome instanceof DocumentProblem) return outcome;
  throw new Error(`expected a DocumentProblem, got ${String(outcome)}`);
}

describe('converting documents to HTML', () => {
  it('turns a DOCX into headings, paragraphs, bold text and links, titled by its properties', async () => {
    const converted = await convert(
      'docx',
      docx(
        [
          { heading: 'Quarterly report' },
          { paragraph: 'Bees & honey < wax.' },
          { bold: 'Bold move' },
          { link: 'Tabhive', href: 'https://example.com/tabhive' },
        ],
        { title: 'The Report' },
      ),
    );
    expect(converted.as === 'html' && converted.html).toContain('<title>The Report</title>');
    expect(markdownOf(converted)).toBe(
      '# Quarterly report\n\nBees & honey < wax.\n\n**Bold move**\n\n[Tabhive](https://example.com/tabhive)',
    );
  });

  it('turns every sheet of an XLSX into a table under its name, with dates and numbers as Excel shows them', async () => {
    const converted = await convert(
      'xlsx',
      xlsx(
        [
          {
            name: 'Prices',
            rows: [
              ['Item', 'Price', 'Since'],
              ['Honey', 4.5, 45292],
              ['Wax', 0.30000000000000004, null],
            ],
          },
          { name: 'Flags', rows: [['Open', true]] },
          { name: 'Empty', rows: [] },
        ],
        { dateCells: ['Prices!C2'], title: 'Stock' },
      ),
    );
    expect(markdownOf(converted)).toBe(
      [
        '## Prices',
        '',
        '| Item | Price | Since |',
        '| --- | --- | --- |',
        '| Honey | 4.5 | 2024-01-01 |',
        '| Wax | 0.3 |  |',
        '',
        '## Flags',
        '',
        '| Open | TRUE |',
        '| --- | --- |',
        '',
        '## Empty',
        '',
        '(empty sheet)',
      ].join('\n'),
    );
  });

  it('keeps a sparse sheet sparse: a value in A1 and one in XFD1048576 make a two-column table', async () => {
    const sheet =
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>first</t></is></c></row>' +
      '<row r="1048576"><c r="XFD1048576"><v>2</v></c></row></sheetData></worksheet>';
    const book = xlsx([{ name: 'Far', rows: [['placeholder']] }]);
    const { unzipSync } = await import('fflate');
    const parts = Object.fromEntries(Object.entries(unzipSync(book)).map(([name, bytes]) => [name, bytes]));
    parts['xl/worksheets/sheet1.xml'] = new TextEncoder().encode(sheet);
    expect(markdownOf(await convert('xlsx', zipOf(parts)))).toBe(
      '## Far\n\n| first |  |\n| --- | --- |\n|  | 2 |',
    );
  });

  it('turns the slides of a PPTX into sections in the presentation’s order', async () => {
    const converted = await convert(
      'pptx',
      pptx([
        { title: 'Welcome', body: ['Hello hive'] },
        { title: 'Plan', body: ['Build', 'Ship'] },
      ]),
    );
    expect(markdownOf(converted)).toBe(
      '## Slide 1: Welcome\n\nHello hive\n\n## Slide 2: Plan\n\nBuild\n\nShip',
    );
  });

  it('turns an ODS into tables, without writing out the million empty rows it ends with', async () => {
    const converted = await convert(
      'ods',
      ods([
        {
          name: 'Hives',
          rows: [
            ['Hive', 'Bees'],
            ['North', 40000],
            [null, 'x'],
          ],
        },
      ]),
    );
    expect(markdownOf(converted)).toBe(
      '## Hives\n\n| Hive | Bees |\n| --- | --- |\n| North | 40000 |\n|  | x |',
    );
  });

  it('turns CSV and TSV into one table, guessing a semicolon delimiter', async () => {
    const csv = await convert('csv', Buffer.from('name;count\n"Bee, worker";3\nDrone;1\n'));
    expect(markdownOf(csv)).toBe('| name | count |\n| --- | --- |\n| Bee, worker | 3 |\n| Drone | 1 |');
    const tsv = await convert('tsv', Buffer.from('a\tb\n1\t2\n'));
    expect(markdownOf(tsv)).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
  });

  it('turns Markdown into HTML and back, titled by its first heading; text stays text', async () => {
    const markdown = await convert(
      'markdown',
      Buffer.from('# Hive notes\n\nSee [the docs](https://example.com/docs).\n\n- one\n- two\n'),
    );
    expect(markdown.as === 'html' && markdown.html).toContain('<title>Hive notes</title>');
    expect(markdownOf(markdown)).toBe(
      '# Hive notes\n\nSee [the docs](https://example.com/docs).\n\n- one\n- two',
    );
    expect(await convert('text', Buffer.from('line one\n*not emphasis*\n'))).toEqual({
      as: 'text',
      text: 'line one\n*not emphasis*\n',
    });
  });

  it('opens a PDF and counts its pages', async () => {
    expect(await convert('pdf', minimalPdf(['One', 'Two', 'Three']))).toEqual({ as: 'pdf', pages: 3 });
  });

  it('names a corrupt PDF, malformed XML and a DOCX without its document part as broken', async () => {
    const pdf = minimalPdf(['One']);
    expect(
      await problemOf(convert('pdf', Buffer.concat([pdf.subarray(0, 40), Buffer.from('garbage')]))),
    ).toMatchObject({
      kind: 'broken',
      message: expect.stringContaining('the PDF is corrupt or truncated'),
    });
    const malformed = zipOf({
      '[Content_Types].xml': '<Types/>',
      'word/document.xml': '<w:document xmlns:w="urn:w"><w:body><w:p></w:body></w:document>',
    });
    expect(await problemOf(convert('docx', malformed))).toMatchObject({
      kind: 'broken',
      message: expect.stringMatching(/^word\/document\.xml is not well-formed XML \(.*\)$/),
    });
    const empty = zipOf({ '[Content_Types].xml': '<Types/>' });
    expect((await problemOf(convert('docx', empty))).message).toBe(
      'the document part (word/document.xml) is missing',
    );
  });

  it('refuses XML with a DOCTYPE, so no entity is ever expanded (billion laughs, XXE)', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>' +
      '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&lol2;</t></si></sst>';
    const book = xlsx([{ name: 'S', rows: [['a']] }]);
    const { unzipSync } = await import('fflate');
    const parts: Record<string, Uint8Array> = unzipSync(book);
    parts['xl/sharedStrings.xml'] = new TextEncoder().encode(laughs);
    expect(await problemOf(convert('xlsx', zipOf(parts)))).toMatchObject({
      kind: 'broken',
      message: 'xl/sharedStrings.xml declares a DOCTYPE, which documents of this kind never do',
    });
    const xxe = zipOf({
      '[Content_Types].xml': '<Types/>',
      'word/document.xml':
        '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><w:document xmlns:w="urn:w">&x;</w:document>',
    });
    expect((await problemOf(convert('docx', xxe))).message).toContain('declares a DOCTYPE');
  });

  it('refuses a workbook whose cells would make a table beyond the cell limit', async () => {
    const rows = Array.from(
      { length: 1001 },
      (_, row) => `<row r="${row + 1}"><c r="A${row + 1}"><v>1</v></c></row>`,
    );
    const wide = Array.from(
      { length: 1000 },
      (_, column) => `<c r="${columnName(column)}1"><v>1</v></c>`,
    ).join('');
    const sheet =
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      rows.join('').replace('<row r="1"><c r="A1"><v>1</v></c></row>', `<row r="1">${wide}</row>`) +
      '</sheetData></worksheet>';
    const { unzipSync } = await import('fflate');
    const parts: Record<string, Uint8Array> = unzipSync(xlsx([{ name: 'S', rows: [['a']] }]));
    parts['xl/worksheets/sheet1.xml'] = new TextEncoder().encode(sheet);
    expect(await problemOf(convert('xlsx', zipOf(parts)))).toMatchObject({
      kind: 'archive-limit',
      message: expect.stringContaining('1001 rows by 1000 columns'),
    });
  });
});

function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}
