import { afterAll, describe, expect, it } from 'vitest';
import { InvalidSelectorError } from '../../../shared/html/clean-html';
import { createLog } from '../../../server/platform/log/log';
import { createDerivationPool } from '../../../server/scrape/derive/create-derivation-pool';
import { largePage } from '../../helpers/content-site';
import { capturedPage, markdownOptions } from '../../helpers/derivation-inputs';
import { minimalPdf } from '../../helpers/minimal-pdf';

const pool = createDerivationPool({ log: createLog({ quiet: true }), size: 2 });
afterAll(() => pool.close());

// The first derivation waits for worker threads to start and load the derivation code, which
// takes seconds on a loaded 2-core machine: more than the unit project's default timeout.
describe('the derivation pool', { timeout: 60_000 }, () => {
  it('derives pages in worker threads, several at once', async () => {
    const results = await Promise.all(
      [1, 2, 3].map((n) => pool.derive(capturedPage(`<h1>Page ${n}</h1>`), markdownOptions)),
    );
    expect(results.map((result) => result.markdown)).toEqual(['# Page 1', '# Page 2', '# Page 3']);
  });

  it('inspects and derives pages fetched for the HTTP fast path in the same workers', async () => {
    const fetched = (html: string) => ({ url: 'https://example.test/', statusCode: 200, rawHtml: html });
    const [shell, text] = await Promise.all([
      pool.deriveFetched(fetched('<div id="root"></div><script src="/app.js"></script>'), markdownOptions),
      pool.deriveFetched(
        fetched('<!doctype html><html><head></head><body><p>Text</p><p hidden>gone</p></body></html>'),
        markdownOptions,
      ),
    ]);
    expect(shell).toEqual({ needsBrowser: 'empty framework mount point' });
    expect(text).toMatchObject({
      capture: { renderedHtml: '<!doctype html>\n<html><head></head><body><p>Text</p></body></html>' },
      derived: { markdown: 'Text' },
    });
  });

  it('starts its workers ahead of the first page when warmed', async () => {
    const cold = createDerivationPool({ log: createLog({ quiet: true }), size: 2 });
    try {
      expect(cold.workers()).toBe(0);
      cold.warm();
      expect(cold.workers()).toBe(2);
      const result = await cold.derive(capturedPage('<h1>Warm</h1>'), markdownOptions);
      expect(result.markdown).toBe('# Warm');
      expect(cold.workers()).toBe(2);
    } finally {
      await cold.close();
    }
  });

  it('parses a PDF and counts its pages', async () => {
    const pdfBase64 = minimalPdf(['PDF Test File', 'Page two']).toString('base64');
    const result = await pool.derive(
      { ...capturedPage(''), contentType: 'application/pdf', pdfBase64 },
      markdownOptions,
    );
    expect(result.markdown).toBe('PDF Test File\n\nPage two');
    expect(result.pdfPages).toBe(2);
  });

  it('returns an unparsed PDF as its base64', async () => {
    const pdfBase64 = minimalPdf(['PDF Test File']).toString('base64');
    const result = await pool.derive(
      { ...capturedPage(''), pdfBase64 },
      { ...markdownOptions, parsePdf: false },
    );
    expect(result.markdown?.startsWith('JVBER')).toBe(true);
    expect(result.pdfPages).toBe(0);
  });

  it('brings an invalid selector back as InvalidSelectorError', async () => {
    await expect(
      pool.derive(capturedPage('<p>x</p>'), { ...markdownOptions, excludeTags: ['p['] }),
    ).rejects.toBeInstanceOf(InvalidSelectorError);
  });

  it('leaves the event loop free while a multi-megabyte page converts', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    // Inline, the conversion would hold the thread until it finished and no tick could run.
    const ticksWhenDone = await pool
      .derive(capturedPage(largePage(2_200)), markdownOptions)
      .then(() => ticks);
    clearInterval(timer);
    expect(ticksWhenDone).toBeGreaterThan(0);
  });
});
