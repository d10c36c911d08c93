import type { Worker } from 'tesseract.js';
import type { LayoutParagraph } from './layout-blocks';
import { englishLanguagePath } from './tesseract-paths';

/** What OCR read from one image. */
export interface OcrReading {
  /** The paragraphs in reading order, in the image's pixels. */
  paragraphs: LayoutParagraph[];
  /** Mean confidence over the image, 0–1. */
  confidence: number;
}

export interface OcrReader {
  /**
   * Reads an image file (PNG, JPEG, GIF, BMP, TIFF, WebP, PNM) of which the caller has checked the
   * size; `dpi` where the caller knows it (a PDF page's image), else tesseract estimates it.
   */
  read(image: Uint8Array, dpi?: number): Promise<OcrReading>;
  /** Ends the recognition thread; a reader is not used after. */
  close(): Promise<void>;
}

/**
 * Tesseract (tesseract.js 7, LSTM engine, English) in a worker thread of its own, which
 * tesseract.js starts: recognition is seconds of CPU that never run on the caller's thread. The
 * thread starts with the first image and reads images one at a time; the model comes from disk
 * (tesseract-paths.ts) and nothing is cached or written, so it runs with no network and no
 * writable directory.
 */
export function createOcrReader(): OcrReader {
  let worker: Promise<Worker> | undefined;
  const started = () => {
    // Loaded with the first image: every derivation worker imports this module, few read an image.
    worker ??= import('tesseract.js').then(({ createWorker, OEM, PSM }) =>
      createWorker('eng', OEM.LSTM_ONLY, {
        langPath: englishLanguagePath(),
        gzip: true,
        cacheMethod: 'none',
        logger: () => undefined,
        errorHandler: () => undefined,
      }).then(async (created) => {
        // Automatic page segmentation: columns, headings and paragraphs are found as blocks.
        await created.setParameters({ tessedit_pageseg_mode: PSM.AUTO, preserve_interword_spaces: '0' });
        return created;
      }),
    );
    return worker;
  };
  return {
    async read(image, dpi) {
      const recognizer = await started();
      await recognizer.setParameters({
        user_defined_dpi: dpi === undefined ? '0' : String(Math.round(Math.min(1200, Math.max(70, dpi)))),
      });
      // tesseract.js transfers a Buffer's memory to its thread: hand it a copy the caller does not hold.
      const { data } = await recognizer.recognize(Buffer.from(image), {}, { text: true, blocks: true });
      const paragraphs: LayoutParagraph[] = [];
      for (const block of data.blocks ?? []) {
        for (const paragraph of block.paragraphs) {
          const lines = paragraph.lines
            .map((line) => ({
              text: line.text.replace(/\s+/g, ' ').trim(),
              height: line.rowAttributes.rowHeight,
              bbox: [line.bbox.x0, line.bbox.y0, line.bbox.x1, line.bbox.y1] as [
                number,
                number,
                number,
                number,
              ],
            }))
            .filter((line) => line.text !== '');
          if (lines.length === 0) continue;
          const { x0, y0, x1, y1 } = paragraph.bbox;
          paragraphs.push({ bbox: [x0, y0, x1, y1], lines, confidence: paragraph.confidence / 100 });
        }
      }
      return { paragraphs, confidence: data.confidence / 100 };
    },
    async close() {
      if (worker === undefined) return;
      const started = worker;
      worker = undefined;
      await (await started.catch(() => undefined))?.terminate();
    },
  };
}
