/**
 * OCR word accuracy on the generated fixtures (test/fixtures/ocr): each sample's known text,
 * rendered in Chromium as a scan, read back by the server's own OCR path: the image parser's
 * reader (PNG, JPEG, WebP as Chromium encoded them; BMP, TIFF and GIF written from the same
 * pixels; the PNG shrunk to a half and a third, as low-resolution scans) and the PDF parser in
 * mode "ocr" (a scanned PDF of the samples, one image per page).
 * Prints a Markdown table of accuracy (1 − WER) and seconds per page. No browser is started.
 *   npx tsx bench/quality/ocr-accuracy.ts
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createOcrReader, typeParagraphs } from '../../server/scrape/derive';
import { pdfToMarkdown } from '../../server/scrape/derive/pdf/pdf-to-markdown';
import { OCR_SAMPLES, sampleText } from '../../test/fixtures/ocr/ocr-texts';
import {
  type GrayImage,
  decodePng,
  encodeBmp,
  encodeGif,
  encodePng,
  encodeTiff,
} from '../../test/helpers/gray-image-files';
import { writeScannedPdf } from '../../test/helpers/scanned-pdf';
import { wordAccuracy } from './ocr-word-accuracy';

/** The picture shrunk by `factor` (box filter): small print, as a low-resolution scan has it. */
function scaled({ width, height, pixels }: GrayImage, factor: number): GrayImage {
  const w = Math.floor(width / factor);
  const h = Math.floor(height / factor);
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy += 1)
        for (let dx = 0; dx < factor; dx += 1)
          sum += pixels[(y * factor + dy) * width + x * factor + dx] ?? 0;
      out[y * w + x] = Math.round(sum / (factor * factor));
    }
  }
  return { width: w, height: h, pixels: out };
}
const halfSize = (image: GrayImage) => scaled(image, 2);

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/ocr/', import.meta.url));

interface Row {
  input: string;
  words: number;
  errors: number;
  seconds: number;
  pages: number;
}

const rows: Row[] = [];
const reader = createOcrReader();
const warm = Date.now();
// The first read starts the thread and loads the model: measured apart from the pages.
await reader.read(await readFile(`${FIXTURES}${OCR_SAMPLES[0]?.name ?? ''}.png`));
const startupSeconds = (Date.now() - warm) / 1000;
try {
  const images: Record<string, Array<{ truth: string; file: Uint8Array }>> = {};
  for (const sample of OCR_SAMPLES) {
    const png = await readFile(`${FIXTURES}${sample.name}.png`);
    const gray = decodePng(png);
    const files: Record<string, Uint8Array> = {
      PNG: png,
      JPEG: await readFile(`${FIXTURES}${sample.name}.jpg`),
      WebP: await readFile(`${FIXTURES}${sample.name}.webp`),
      BMP: encodeBmp(gray),
      TIFF: encodeTiff(gray),
      'GIF (16 greys)': encodeGif(gray),
      'PNG at half size (body text 9.5 px high)': encodePng(halfSize(gray)),
      'PNG at a third (body text 6 px high)': encodePng(scaled(gray, 3)),
    };
    for (const [input, file] of Object.entries(files))
      (images[input] ??= []).push({ truth: sampleText(sample), file });
  }
  for (const [input, samples] of Object.entries(images)) {
    const row: Row = { input, words: 0, errors: 0, seconds: 0, pages: 0 };
    for (const { truth, file } of samples) {
      const started = Date.now();
      const { markdown } = typeParagraphs((await reader.read(file)).paragraphs, 'ocr', 1);
      row.seconds += (Date.now() - started) / 1000;
      const score = wordAccuracy(truth, markdown);
      row.words += score.words;
      row.errors += score.errors;
      row.pages += 1;
    }
    rows.push(row);
  }
} finally {
  await reader.close();
}

const scans = await Promise.all(
  OCR_SAMPLES.map(async (sample) => ({ scan: decodePng(await readFile(`${FIXTURES}${sample.name}.png`)) })),
);
const pdf = writeScannedPdf(scans);
const started = Date.now();
const read = await pdfToMarkdown(new Uint8Array(pdf), { mode: 'ocr', pages: true });
const pdfRow: Row = {
  input: `scanned PDF, mode "ocr" (${scans.length} pages, one thread start included)`,
  words: 0,
  errors: 0,
  seconds: (Date.now() - started) / 1000,
  pages: read.numPages,
};
OCR_SAMPLES.forEach((sample, index) => {
  const score = wordAccuracy(sampleText(sample), read.pages?.[index]?.markdown ?? '');
  pdfRow.words += score.words;
  pdfRow.errors += score.errors;
});
rows.push(pdfRow);

console.log(`OCR thread start and model load: ${startupSeconds.toFixed(2)} s\n`);
console.log('| input | pages | words | word errors | word accuracy | seconds per page |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  const accuracy = 1 - row.errors / row.words;
  console.log(
    `| ${row.input} | ${row.pages} | ${row.words} | ${row.errors} | ${(accuracy * 100).toFixed(1)} % | ${(row.seconds / row.pages).toFixed(2)} |`,
  );
}
