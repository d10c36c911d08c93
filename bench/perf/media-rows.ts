import type { BenchRow } from './results-table';
import { ledgeredCrawl } from './engine-contenders';
import { type TabhiveProcess } from './tabhive-process';

/**
 * What skipping media saves (docs/browser-control.md#media): the picture-heavy pages of the bench
 * site (media-pages.ts) crawled in the browser twice on one Tabhive, by default (images, video,
 * audio and fonts left out of a text capture) and with `blockMedia: false` (loaded as a person's
 * browser would), each with its CPU ledger. The default crawl goes second, so that any warm-up
 * favours the loaded one.
 */
export async function measureMediaRows(
  tabhive: TabhiveProcess,
  { startUrl, limit }: { startUrl: string; limit: number },
): Promise<BenchRow[]> {
  const loaded = await ledgeredCrawl(tabhive, { startUrl, limit, scrapeOptions: { blockMedia: false } });
  const skipped = await ledgeredCrawl(tabhive, { startUrl, limit });
  const row = (
    key: string,
    label: string,
    value: number,
    unit: string,
    better: BenchRow['better'],
  ): BenchRow => ({ key, label, value, unit, better });
  return [
    row(
      'media-crawl-skipped',
      'Tabhive crawl of picture-heavy pages, media skipped (default)',
      skipped.measure.pages / skipped.measure.seconds,
      'pages/s',
      'higher',
    ),
    row(
      'media-crawl-loaded',
      'Tabhive crawl of picture-heavy pages, blockMedia: false',
      loaded.measure.pages / loaded.measure.seconds,
      'pages/s',
      'higher',
    ),
    row(
      'media-cpu-per-page-skipped',
      'Tabhive CPU per picture-heavy page, media skipped (default)',
      skipped.cpu.totalMs,
      'ms',
      'lower',
    ),
    row(
      'media-cpu-per-page-loaded',
      'Tabhive CPU per picture-heavy page, blockMedia: false',
      loaded.cpu.totalMs,
      'ms',
      'lower',
    ),
  ];
}
