import { describe, expect, it } from 'vitest';
import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import {
  documentWorkStarts,
  runUnderScrapeDeadline,
  scrapeDeadline,
} from '../../../server/scrape/derive/scrape-deadline';
import { WorkContinues } from '../../../server/scrape/derive/work-continues';

const request = (timeout: number) =>
  ({
    url: { raw: 'https://a.test/x.pdf', url: 'https://a.test/x.pdf' },
    timeout,
  }) as unknown as ScrapeRequestV2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The scrape deadline's continuation: only a document's work, only for a caller who can come back. */
describe('a scrape past its timeout', () => {
  it('goes on once its document is being read, when its caller can come back for it', async () => {
    let deadlineSeen: number | undefined;
    const failure = await runUnderScrapeDeadline(
      request(30),
      'team',
      async () => {
        documentWorkStarts();
        deadlineSeen = scrapeDeadline();
        await sleep(120);
        return 'the document';
      },
      true,
    ).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(WorkContinues);
    // The document's derivation runs to the continuation's ceiling, not to the 30 ms timeout.
    expect(deadlineSeen! - Date.now()).toBeGreaterThan(60_000);
    await expect((failure as WorkContinues<string>).running).resolves.toBe('the document');
  });

  it('fails as before while its page is still being captured', async () => {
    const failure = await runUnderScrapeDeadline(
      request(30),
      'team',
      () => sleep(120).then(() => 'late'),
      true,
    ).catch((err: unknown) => err);
    expect(failure).not.toBeInstanceOf(WorkContinues);
    expect(failure).toMatchObject({ code: 'SCRAPE_TIMEOUT', details: undefined });
  });

  it('fails as before for a caller who cannot come back (jobs, products)', async () => {
    let deadlineSeen: number | undefined;
    const failure = await runUnderScrapeDeadline(request(30), 'team', async () => {
      documentWorkStarts();
      deadlineSeen = scrapeDeadline();
      await sleep(120);
      return 'late';
    }).catch((err: unknown) => err);
    expect(failure).not.toBeInstanceOf(WorkContinues);
    expect(failure).toMatchObject({ code: 'SCRAPE_TIMEOUT' });
    expect(deadlineSeen! - Date.now()).toBeLessThan(1_000);
  });
});
