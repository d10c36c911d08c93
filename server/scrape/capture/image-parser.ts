import type { PageCapture } from '../../../shared/protocol/messages';
import { TabhiveError } from '../../platform/errors';

/**
 * The image parser (`parsers: ["image"]`) asks for OCR of raster images, which needs a model this
 * server does not have. It is accepted in the list, so that requests built for Firecrawl pass, but
 * an image it would have had to read fails with Firecrawl's unsupported-file error rather than
 * answering without the text the caller asked for.
 */
export function refuseImageForOcr(capture: PageCapture, imageParser: boolean): void {
  if (!imageParser) return;
  const mediaType = (capture.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!mediaType.startsWith('image/')) return;
  throw new TabhiveError(
    'failed',
    `Scrape resulted in unsupported file: ${capture.url} is an image (${mediaType}), and this server cannot ` +
      'read text from images (the "image" parser needs OCR, which it does not have). Leave "image" out of ' +
      'parsers to scrape the image as the browser shows it.',
    { code: 'SCRAPE_UNSUPPORTED_FILE_ERROR' },
  );
}
