/**
 * Run by ocr-offline.test.ts in a network namespace of its own (no interface but loopback, no DNS):
 * OCRs one fixture with the server's reader and prints what it read, or fails.
 */
import { createOcrReader } from '../../server/scrape/derive';
import { OCR_SAMPLES, ocrFixture } from './ocr-fixtures';

const reader = createOcrReader();
try {
  const reading = await reader.read(ocrFixture(OCR_SAMPLES[1]!, 'png'));
  process.stdout.write(
    `OCR-TEXT:${reading.paragraphs.flatMap((p) => p.lines.map((l) => l.text)).join(' ')}\n`,
  );
} finally {
  await reader.close();
}
