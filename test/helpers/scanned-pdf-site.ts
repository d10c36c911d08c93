import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OCR_SAMPLES, ocrFixturePixels } from './ocr-fixtures';
import { writeScannedPdf } from './scanned-pdf';

/**
 * A site serving scanned PDFs (one image per page, no text layer) of the OCR fixtures:
 * `/scans-<n>.pdf` has n pages, the samples in turn. Reading them with OCR takes about a second a
 * page, so a large enough one outlives a short scrape `timeout`.
 */
export async function startScannedPdfSite() {
  const pixels = OCR_SAMPLES.map((sample) => ocrFixturePixels(sample));
  const server = createServer((request, response) => {
    const pages = Number(
      /^\/scans-(\d{1,2})\.pdf$/.exec(new URL(request.url ?? '/', 'http://x').pathname)?.[1],
    );
    if (!(pages >= 1)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const pdf = writeScannedPdf(
      Array.from({ length: pages }, (_, index) => ({ scan: pixels[index % pixels.length]! })),
      `${pages} scans`,
    );
    response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length }).end(pdf);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
