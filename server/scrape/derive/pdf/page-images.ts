import { type getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { pixelsToPnm } from '../ocr/pnm';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
type PdfPageProxy = Awaited<ReturnType<PdfDocument['getPage']>>;

/** An image drawn on a page, decoded, as a file OCR reads, with where it stands on the page. */
export interface PageImage {
  file: Uint8Array;
  width: number;
  height: number;
  /** [left, top, right, bottom] in PDF points from the page's top-left corner. */
  box: [number, number, number, number];
}

/** Images smaller than this share of the page are logos and rules, not scanned text. */
const MIN_PAGE_SHARE = 1 / 8;

type Matrix = [number, number, number, number, number, number];
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

/**
 * The images a page paints that are big enough to hold text, as pdf.js decodes them (no canvas:
 * the decoded pixels are taken from the page's objects and written as PNM). This is how a PDF
 * page is OCRed here: there is no native canvas to render pages with, so a scanned page (one
 * image per page, as scanners write them) is read through its image, and vector drawings or text
 * drawn as outlines are not read. Images above `maxPixels` are left out.
 */
export async function pageImages(page: PdfPageProxy, maxPixels: number): Promise<PageImage[]> {
  const { OPS } = await getResolvedPDFJS();
  const viewport = page.getViewport({ scale: 1 });
  const toViewport = viewport.transform as Matrix;
  const operators = await page.getOperatorList();
  const images: PageImage[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  for (let index = 0; index < operators.fnArray.length; index += 1) {
    const op = operators.fnArray[index];
    const args = operators.argsArray[index] as unknown[];
    if (op === OPS.save) stack.push(ctm);
    else if (op === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (op === OPS.transform) ctm = multiply(ctm, args as Matrix);
    else if (op === OPS.paintImageXObject || op === OPS.paintInlineImageXObject) {
      const box = placement(multiply(toViewport, ctm));
      const area = (box[2] - box[0]) * (box[3] - box[1]);
      if (area < viewport.width * viewport.height * MIN_PAGE_SHARE) continue;
      const image =
        op === OPS.paintInlineImageXObject
          ? (args[0] as DecodedImage)
          : await pageObject(page, String(args[0]));
      if (image?.data === undefined || image.width * image.height > maxPixels) continue;
      images.push({
        file: pixelsToPnm(image.width, image.height, image.data, image.kind),
        width: image.width,
        height: image.height,
        box,
      });
    }
  }
  return images;
}

interface DecodedImage {
  width: number;
  height: number;
  kind: number;
  data?: Uint8Array | Uint8ClampedArray;
}

/** The unit square an image is painted in, through the matrix, as a box. */
function placement(m: Matrix): [number, number, number, number] {
  const xs = [m[4], m[0] + m[4], m[2] + m[4], m[0] + m[2] + m[4]];
  const ys = [m[5], m[1] + m[5], m[3] + m[5], m[1] + m[3] + m[5]];
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** A decoded image object; pdf.js keeps images shared between pages (`g_…`) in the document's objects. */
function pageObject(page: PdfPageProxy, id: string): Promise<DecodedImage | undefined> {
  const objects = id.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => {
    try {
      objects.get(id, (value: unknown) => resolve(value as DecodedImage | undefined));
    } catch {
      resolve(undefined);
    }
  });
}
