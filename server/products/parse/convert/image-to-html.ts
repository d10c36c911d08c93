import {
  createOcrReader,
  DEFAULT_OCR_LIMITS,
  type ImageFormat,
  typeParagraphs,
} from '../../../scrape/derive';
import { DocumentProblem } from '../document-problem';
import { markdownToHtml } from './markdown-to-html';

/**
 * An uploaded image read with OCR (in the thread tesseract.js starts, from this conversion's own
 * thread) into HTML: its paragraphs typed (headings by their height, lists by their bullets) as
 * Markdown, then written as HTML so that the formats come from it as from any document. An image
 * above the pixel limit is refused before it is decoded. OCR's text is escaped: characters it
 * read as `<` are text, never markup.
 */
export async function imageToHtml(bytes: Uint8Array, format: ImageFormat, title: string): Promise<string> {
  const pixels = format.width * format.height;
  if (pixels > DEFAULT_OCR_LIMITS.maxPixels) {
    throw new DocumentProblem(
      'archive-limit',
      `the ${format.label} is ${format.width}×${format.height} pixels, more than the ${DEFAULT_OCR_LIMITS.maxPixels} OCR reads`,
    );
  }
  const reader = createOcrReader();
  try {
    const reading = await reader.read(bytes);
    const { markdown, items } = typeParagraphs(reading.paragraphs, 'ocr', 1);
    // The first heading read titles the document, as a document's first heading titles it.
    const heading = items.find((item) => item.type === 'heading')?.content.replace(/^#+\s*/, '');
    return markdownToHtml(markdown.replace(/&/g, '&amp;').replace(/</g, '&lt;'), heading ?? title);
  } catch (err) {
    if (err instanceof DocumentProblem) throw err;
    throw new DocumentProblem('broken', `the ${format.label} could not be decoded (${String(err)})`);
  } finally {
    await reader.close();
  }
}
