/**
 * What OCR may cost. Recognition takes about half a second of CPU per page-sized image, and a
 * decoded image takes width × height bytes per channel, so both the pixels and the pages are bounded.
 */
export interface OcrLimits {
  /** Pixels of one image (width × height) OCR reads; a bigger one is refused (an upload) or left unread (a PDF page). */
  maxPixels: number;
  /** Pages of one PDF that are OCRed; later pages keep only their text layer. */
  maxPages: number;
  /** Time spent reading a PDF whose pages are OCRed, after which no further page is read. */
  maxReadMs: number;
}

export const DEFAULT_OCR_LIMITS: OcrLimits = {
  maxPixels: 40_000_000,
  maxPages: 200,
  maxReadMs: 50_000,
};
