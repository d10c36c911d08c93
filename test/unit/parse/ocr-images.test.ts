import { describe, expect, it } from 'vitest';
import { wordAccuracy } from '../../../bench/quality/ocr-word-accuracy';
import { deriveFormats } from '../../../shared/formats/derive-formats';
import { convertDocument } from '../../../server/products/parse/convert/convert-document';
import { DocumentProblem } from '../../../server/products/parse/document-problem';
import { sniffContent } from '../../../server/products/parse/sniff-content';
import { readImageFormat } from '../../../server/scrape/derive';
import { DEFAULT_ZIP_LIMITS } from '../../../server/products/parse/zip/zip-limits';
import { encodeBmp, encodeGif, encodePng, encodeTiff } from '../../helpers/gray-image-files';
import { OCR_SAMPLES, ocrFixture, ocrFixturePixels, sampleText } from '../../helpers/ocr-fixtures';

/**
 * The image parser's conversion (tesseract.js with the model from @tesseract.js-data/eng on
 * disk): the same generated scan as PNG, JPEG, WebP (Chromium's encoders), BMP, TIFF and GIF
 * (written from its pixels), read back to Markdown through the parse pipeline's HTML.
 */
const sample = OCR_SAMPLES[0]!;
const gray = ocrFixturePixels(sample);
const files: Record<string, Uint8Array> = {
  'image/png': ocrFixture(sample, 'png'),
  'image/jpeg': ocrFixture(sample, 'jpg'),
  'image/webp': ocrFixture(sample, 'webp'),
  'image/bmp': encodeBmp(gray),
  'image/tiff': encodeTiff(gray),
  'image/gif': encodeGif(gray),
};

const markdownOf = (html: string) =>
  deriveFormats(
    { url: 'https://upload.invalid/scan', statusCode: 200, rawHtml: html, renderedHtml: html },
    { formats: new Set(['markdown']), onlyMainContent: false, removeBase64Images: true },
  ).markdown ?? '';

describe('image format sniffing', () => {
  it.each(Object.entries(files))('reads the type and size of %s from its header', (mimeType, file) => {
    expect(readImageFormat(file)).toMatchObject({ mimeType, width: gray.width, height: gray.height });
    expect(sniffContent(file)).toMatchObject({ kind: 'image', mimeType });
  });
});

describe('OCR of an uploaded image', () => {
  it.each(Object.entries(files))('reads the text of %s', { timeout: 60_000 }, async (_type, file) => {
    const converted = await convertDocument({
      bytes: file,
      kind: 'image',
      title: 'scan',
      zipLimits: DEFAULT_ZIP_LIMITS,
      ocrImages: true,
    });
    if (converted.as !== 'html') throw new Error('an image converts to HTML');
    const markdown = markdownOf(converted.html);
    expect(markdown).toMatch(/^(#+ )?Quarterly Shipping Report\s+The warehouse in Rotterdam/);
    expect(wordAccuracy(sampleText(sample), markdown).accuracy).toBeGreaterThanOrEqual(0.95);
  });

  it('refuses an image when parsers leave "image" out', async () => {
    await expect(
      convertDocument({
        bytes: files['image/png']!,
        kind: 'image',
        title: 'scan',
        zipLimits: DEFAULT_ZIP_LIMITS,
      }),
    ).rejects.toMatchObject({ kind: 'unsupported', message: expect.stringContaining('"image"') });
  });

  it('refuses an image over the pixel limit before decoding it', async () => {
    // A PNG whose header says 10,000 × 10,000: 100 megapixels, more than OCR reads.
    const huge = encodePng({ width: 1, height: 1, pixels: new Uint8Array(1) });
    huge.writeUInt32BE(10_000, 16);
    huge.writeUInt32BE(10_000, 20);
    const refused = await convertDocument({
      bytes: huge,
      kind: 'image',
      title: 'huge',
      zipLimits: DEFAULT_ZIP_LIMITS,
      ocrImages: true,
    }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DocumentProblem);
    expect(refused).toMatchObject({ kind: 'archive-limit', message: expect.stringContaining('10000×10000') });
  });

  it('titles the document with the first heading it reads', async () => {
    const converted = await convertDocument({
      bytes: files['image/png']!,
      kind: 'image',
      title: 'scan',
      zipLimits: DEFAULT_ZIP_LIMITS,
      ocrImages: true,
    });
    expect(converted.as === 'html' && converted.html).toContain('<title>Quarterly Shipping Report</title>');
  });
});
