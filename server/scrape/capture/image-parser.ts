import type { PageCapture } from '../../../shared/protocol/messages';
import { TabhiveError } from '../../platform/errors';

/**
 * The image parser (`parsers: ["image"]`) asks for OCR of raster images. Uploaded images are
 * OCRed (`POST /v2/parse`, docs/extract-parse-llmstxt.md); a browser's capture of an image URL
 * carries no image bytes to OCR, so an image URL scraped with the image parser fails with
 * Firecrawl's unsupported-file error rather than answering without the text the caller asked for.
 */
export function refuseImageForOcr(capture: PageCapture, imageParser: boolean): void {
  if (!imageParser) return;
  const mediaType = (capture.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!mediaType.startsWith('image/')) return;
  throw new TabhiveError(
    'failed',
    `Scrape resulted in unsupported file: ${capture.url} is an image (${mediaType}), and this server cannot ` +
      'read text from images it scrapes by URL: upload the image to /v2/parse to OCR it, or leave "image" out of ' +
      'parsers to scrape the image as the browser shows it.',
    { code: 'SCRAPE_UNSUPPORTED_FILE_ERROR' },
  );
}
