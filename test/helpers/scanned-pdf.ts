import { deflateSync } from 'node:zlib';
import type { GrayImage } from './gray-image-files';

/**
 * A PDF written for the OCR tests: each page is either a scan (one grey image filling the page,
 * no text layer, as a scanner makes) or typed text (Helvetica text operators, a text layer and
 * no image), so `mode: "auto"` has pages of both kinds to tell apart.
 */
export type PdfPageSpec = { scan: GrayImage } | { text: string[] };

const PAGE_WIDTH = 612;

export function writeScannedPdf(pages: readonly PdfPageSpec[], title?: string): Buffer {
  const objects: Buffer[] = [];
  const add = (body: Buffer | string) => {
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
    return objects.length;
  };
  const stream = (dictionary: string, data: Buffer) =>
    Buffer.concat([
      Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]);

  const catalog = add('');
  const pageTree = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const info = title === undefined ? undefined : add(`<< /Title (${escapePdf(title)}) >>`);
  const pageIds: number[] = [];
  for (const page of pages) {
    if ('scan' in page) {
      const { width, height, pixels } = page.scan;
      const pageHeight = Math.round((PAGE_WIDTH * height) / width);
      const image = add(
        stream(
          `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
          deflateSync(pixels),
        ),
      );
      const content = add(
        stream('/Filter /FlateDecode', deflateSync(`q ${PAGE_WIDTH} 0 0 ${pageHeight} 0 0 cm /Im0 Do Q`)),
      );
      pageIds.push(
        add(
          `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${pageHeight}] ` +
            `/Resources << /XObject << /Im0 ${image} 0 R >> >> /Contents ${content} 0 R >>`,
        ),
      );
    } else {
      const operators = page.text
        .map((line, index) => `BT /F1 14 Tf 60 ${740 - index * 22} Td (${escapePdf(line)}) Tj ET`)
        .join('\n');
      const content = add(stream('', Buffer.from(operators, 'latin1')));
      pageIds.push(
        add(
          `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 ${PAGE_WIDTH} 792] ` +
            `/Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`,
        ),
      );
    }
  }
  objects[catalog - 1] = Buffer.from(`<< /Type /Catalog /Pages ${pageTree} 0 R >>`, 'latin1');
  objects[pageTree - 1] = Buffer.from(
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`,
    'latin1',
  );

  const parts: Buffer[] = [Buffer.from('%PDF-1.5\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]?.length ?? 0;
  objects.forEach((body, index) => {
    offsets.push(length);
    const object = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(object);
    length += object.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`),
    `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${info === undefined ? '' : ` /Info ${info} 0 R`} >>\n`,
    `startxref\n${length}\n%%EOF\n`,
  ].join('');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

function escapePdf(text: string): string {
  return text.replace(/[\\()]/g, (char) => `\\${char}`);
}
