import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OCR_SAMPLES, type OcrSample, sampleText } from '../fixtures/ocr/ocr-texts';
import { type GrayImage, decodePng } from './gray-image-files';

const FIXTURES = fileURLToPath(new URL('../fixtures/ocr/', import.meta.url));

/** A generated OCR fixture (test/fixtures/ocr): its file as Chromium or encodePng wrote it. */
export function ocrFixture(sample: OcrSample, extension: 'png' | 'jpg' | 'webp'): Buffer {
  return readFileSync(`${FIXTURES}${sample.name}.${extension}`);
}

/** The grey pixels of a fixture, to write it again in another format or as a scanned PDF page. */
export function ocrFixturePixels(sample: OcrSample): GrayImage {
  return decodePng(ocrFixture(sample, 'png'));
}

export { OCR_SAMPLES, sampleText };
