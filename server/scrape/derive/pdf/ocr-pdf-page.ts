import { type BlockItem, type LayoutParagraph, typeParagraphs } from '../ocr/layout-blocks';
import type { OcrReader } from '../ocr/ocr-reader';
import type { PageImage } from './page-images';

type Box = [number, number, number, number];

/**
 * One PDF page read with OCR, image by image in the order the page paints them: the Markdown of
 * its typed paragraphs, and its blocks with OCR's pixel boxes carried to the page's points through
 * the box each image is painted in.
 */
export async function ocrPdfPage(
  ocr: OcrReader,
  images: readonly PageImage[],
  pageNumber: number,
): Promise<{ markdown: string; items: BlockItem[] }> {
  const parts: string[] = [];
  const items: BlockItem[] = [];
  for (const image of images) {
    const toPage = (box: Box): Box => {
      const scaleX = (image.box[2] - image.box[0]) / image.width;
      const scaleY = (image.box[3] - image.box[1]) / image.height;
      return [
        image.box[0] + box[0] * scaleX,
        image.box[1] + box[1] * scaleY,
        image.box[0] + box[2] * scaleX,
        image.box[1] + box[3] * scaleY,
      ];
    };
    const heightScale = (image.box[3] - image.box[1]) / image.height;
    // Points are 1/72 inch: the image's pixels over the inches it is painted across.
    const dpi = (image.width * 72) / Math.max(1, image.box[2] - image.box[0]);
    const paragraphs: LayoutParagraph[] = (await ocr.read(image.file, dpi)).paragraphs.map((paragraph) => ({
      confidence: paragraph.confidence,
      bbox: toPage(paragraph.bbox),
      lines: paragraph.lines.map((line) => ({
        text: line.text,
        height: line.height * heightScale,
        ...(line.bbox === undefined ? {} : { bbox: toPage(line.bbox) }),
      })),
    }));
    const typed = typeParagraphs(paragraphs, 'ocr', pageNumber);
    if (typed.markdown !== '') parts.push(typed.markdown);
    const offset = items.length;
    items.push(
      ...typed.items.map((item) => ({
        ...item,
        id: `p${pageNumber}-b${offset + item.readingOrder}`,
        readingOrder: offset + item.readingOrder,
      })),
    );
  }
  return { markdown: parts.join('\n\n'), items };
}
