import { describe, expect, it } from 'vitest';
import { TabhiveError } from '../../../server/platform/errors/tabhive-error';
import { declaredFileKind } from '../../../server/products/parse/declared-file-kind';
import { resolveFileKind } from '../../../server/products/parse/resolve-file-kind';
import { sniffContent } from '../../../server/products/parse/sniff-content';
import { docx, ods, pptx, xlsx, zipOf } from '../../fixtures/documents/office-documents';
import { minimalPdf } from '../../helpers/minimal-pdf';

const kindOf = (filename: string, contentType: string | undefined, bytes: Uint8Array) =>
  resolveFileKind(declaredFileKind(filename, contentType), sniffContent(bytes));

function refusal(work: () => unknown): TabhiveError {
  try {
    work();
  } catch (err) {
    if (err instanceof TabhiveError) return err;
    throw err;
  }
  throw new Error('expected a TabhiveError');
}

const text = (value: string) => Buffer.from(value, 'utf8');

describe('what an upload is', () => {
  it('knows each supported kind by its content', () => {
    expect(sniffContent(minimalPdf(['One'])).kind).toBe('pdf');
    expect(sniffContent(docx([{ paragraph: 'x' }])).kind).toBe('docx');
    expect(sniffContent(xlsx([{ name: 'S', rows: [['a']] }])).kind).toBe('xlsx');
    expect(sniffContent(pptx([{ title: 't', body: [] }])).kind).toBe('pptx');
    expect(sniffContent(ods([{ name: 'S', rows: [['a']] }])).kind).toBe('ods');
    expect(sniffContent(text('  <!doctype html><html><body>x</body></html>')).kind).toBe('html');
    expect(sniffContent(text('<p>A paragraph</p>')).kind).toBe('html');
    expect(sniffContent(text('plain words, ünïcode and a tab\tin it\n')).kind).toBe('text');
    expect(sniffContent(Buffer.from([0xff, 0xfe, ...Buffer.from('hi', 'utf16le')])).kind).toBe('text');
    // windows-1252 text that is not UTF-8 is still text.
    expect(sniffContent(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])).kind).toBe('text');
  });

  it('takes the declared kind when name and content agree, and the content when nothing is declared', () => {
    expect(kindOf('report.docx', 'application/octet-stream', docx([{ paragraph: 'x' }]))).toBe('docx');
    expect(kindOf('upload', undefined, xlsx([{ name: 'S', rows: [['a']] }]))).toBe('xlsx');
    expect(kindOf('notes.md', 'text/markdown', text('<div>HTML at the top</div>\n# Title'))).toBe('markdown');
    expect(kindOf('table.csv', 'application/vnd.ms-excel', text('a,b\n1,2\n'))).toBe('csv');
    expect(kindOf('data', 'text/csv', text('a,b\n1,2\n'))).toBe('csv');
    expect(kindOf('page.txt', 'text/plain', text('<html><body>source</body></html>'))).toBe('text');
    expect(kindOf('data.json', 'application/json', text('{"a":1}'))).toBe('text');
    expect(kindOf('scan', 'application/octet-stream', minimalPdf(['x']))).toBe('pdf');
  });

  it('answers 415 with the detected type when the name says one thing and the content another', () => {
    const pdfNamedDocx = refusal(() => kindOf('report.docx', undefined, minimalPdf(['x'])));
    expect(pdfNamedDocx).toMatchObject({
      kind: 'unsupported-media',
      code: 'UNSUPPORTED_FILE_TYPE',
      details: { detectedType: 'application/pdf' },
    });
    expect(pdfNamedDocx.message).toBe(
      'The uploaded file is declared by its name (.docx) as Word document (DOCX), but its content was detected as PDF document (application/pdf).',
    );
    const xlsxAsPptx = refusal(() => kindOf('deck.pptx', undefined, xlsx([{ name: 'S', rows: [['a']] }])));
    expect(xlsxAsPptx.message).toContain('its content was detected as Excel workbook (XLSX)');
    const binaryAsText = refusal(() =>
      kindOf('notes.txt', 'text/plain', Buffer.from([0x00, 0x01, 0x02, 0xff])),
    );
    expect(binaryAsText).toMatchObject({
      kind: 'unsupported-media',
      details: { detectedType: 'application/octet-stream' },
    });
    const byType = refusal(() => kindOf('upload', 'application/pdf', docx([{ paragraph: 'x' }])));
    expect(byType.message).toContain('declared by its Content-Type (application/pdf)');
  });

  it('answers 415 for content of no supported kind, naming it', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    expect(refusal(() => kindOf('picture.png', 'image/png', png))).toMatchObject({
      kind: 'unsupported-media',
      message: expect.stringContaining('PNG image (image/png)'),
    });
    const legacy = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    expect(refusal(() => kindOf('old.doc', 'application/msword', legacy)).message).toContain(
      'legacy Office document (.doc/.xls/.ppt)',
    );
    expect(refusal(() => kindOf('files.zip', undefined, zipOf({ 'a.txt': 'x' }))).message).toContain(
      'zip archive (application/zip)',
    );
    const odt = zipOf({ mimetype: 'application/vnd.oasis.opendocument.text', 'content.xml': '<x/>' });
    expect(refusal(() => kindOf('letter.odt', undefined, odt)).details).toEqual({
      detectedType: 'application/vnd.oasis.opendocument.text',
    });
    // A real DOCX named .doc: the name asks for what parse does not do.
    expect(refusal(() => kindOf('report.doc', undefined, docx([{ paragraph: 'x' }]))).message).toContain(
      'declared by its name (.doc) as legacy Word document (.doc), which parse does not convert; its content was detected as Word document (DOCX)',
    );
  });
});
