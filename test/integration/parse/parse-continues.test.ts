import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OCR_SAMPLES, ocrFixture, ocrFixturePixels, sampleText } from '../../helpers/ocr-fixtures';
import { writeScannedPdf } from '../../helpers/scanned-pdf';
import { startTestTabhive } from '../../helpers/start-test-tabhive';
import { wordAccuracy } from '../../../bench/quality/ocr-word-accuracy';

/**
 * OCR through POST /v2/parse on the whole server (no browser: an upload needs none), and a parse
 * that outlives its request: a scanned PDF whose OCR takes longer than its `timeout` answers 408
 * `processing_continues`, and the same upload sent again joins that parse for its result, charged once.
 */

let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  tabhive = await startTestTabhive({ browsers: 0 });
}, 60_000);
afterAll(async () => {
  await tabhive?.stop();
});

async function upload(bytes: Uint8Array, filename: string, options: object) {
  const form = new FormData();
  form.append('options', JSON.stringify(options));
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  const response = await fetch(`${tabhive.url}/v2/parse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tabhive.apiKey}` },
    body: form,
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
    json: (await response.json()) as any,
  };
}

async function creditsUsedThisMonth(): Promise<number> {
  const { json } = await tabhive.get('/v2/team/credit-usage/historical');
  return (json.periods as Array<{ creditsUsed: number }>).reduce(
    (sum, period) => sum + period.creditsUsed,
    0,
  );
}

describe('parse with OCR', { timeout: 120_000 }, () => {
  it('reads an uploaded JPEG, typed as its own image type', async () => {
    const parsed = await upload(ocrFixture(OCR_SAMPLES[2]!, 'jpg'), 'recipe.jpg', { formats: ['markdown'] });
    expect(parsed.status).toBe(200);
    expect(
      wordAccuracy(sampleText(OCR_SAMPLES[2]!), parsed.json.data.markdown).accuracy,
    ).toBeGreaterThanOrEqual(0.95);
    expect(parsed.json.data.metadata).toMatchObject({
      title: 'Lemon Barley Soup',
      contentType: 'image/jpeg',
      sourceURL: 'recipe.jpg',
      creditsUsed: 1,
    });
  });

  it('refuses an image with 415 when parsers leave "image" out', async () => {
    const parsed = await upload(ocrFixture(OCR_SAMPLES[2]!, 'png'), 'recipe.png', { parsers: ['pdf'] });
    expect(parsed.status).toBe(415);
    expect(parsed.json).toMatchObject({ success: false, code: 'UNSUPPORTED_FILE_TYPE' });
  });

  it('answers a parse past its timeout with processing_continues, and the same upload again with its result', async () => {
    const scans = [...OCR_SAMPLES, ...OCR_SAMPLES].map((sample) => ({ scan: ocrFixturePixels(sample) }));
    const pdf = writeScannedPdf(scans, 'Six scans');
    const options = { timeout: 1_000, parsers: [{ type: 'pdf', mode: 'ocr', pages: true }] };
    const usedBefore = await creditsUsedThisMonth();
    const first = await upload(pdf, 'scans.pdf', options);
    expect(first).toMatchObject({
      status: 408,
      retryAfter: '10',
      json: {
        success: false,
        code: 'SCRAPE_TIMEOUT',
        details: { state: 'processing_continues', jobStatus: 'running', retryAfterSeconds: 10 },
      },
    });
    // As the clients' auto-resume does: the very same request again, until it has the document.
    let answer = first;
    for (let attempt = 0; attempt < 60 && answer.status === 408; attempt += 1) {
      answer = await upload(pdf, 'scans.pdf', options);
    }
    expect(answer.status).toBe(200);
    const document = answer.json.data;
    expect(document.metadata).toMatchObject({ numPages: 6, creditsUsed: 6, title: 'Six scans' });
    expect(document.pages).toHaveLength(6);
    for (const [index, sample] of [...OCR_SAMPLES, ...OCR_SAMPLES].entries()) {
      expect(
        wordAccuracy(sampleText(sample), document.pages[index].markdown).accuracy,
      ).toBeGreaterThanOrEqual(0.95);
    }
    // One parse ran and was booked once, however many times it was asked for.
    expect((await creditsUsedThisMonth()) - usedBefore).toBe(6);
  });
});
