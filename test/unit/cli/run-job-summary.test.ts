import { describe, expect, it } from 'vitest';
import { exitCodeOf, EXIT, PagesFailed } from '../../../server/api/cli/tabhive/exit-codes';
import type { JobOutcome } from '../../../server/api/cli/tabhive/follow-job';
import { summaryText } from '../../../server/api/cli/tabhive/run-job';

const outcome = (over: Partial<JobOutcome>): JobOutcome => ({
  id: 'job-1',
  status: 'completed',
  completed: 3,
  total: 3,
  creditsUsed: 3,
  written: 3,
  skipped: 0,
  failed: [],
  robotsBlocked: [],
  ...over,
});

describe('the crawl and batch summary', () => {
  it('counts every page, the failed ones too', () => {
    expect(
      summaryText(
        'batch',
        outcome({
          completed: 1,
          total: 3,
          written: 1,
          creditsUsed: 1,
          failed: [
            { url: 'http://a.test/x', error: 'refused' },
            { url: 'http://a.test/y', error: 'refused' },
          ],
        }),
        'stdout',
      ),
    ).toBe('Batch job-1 completed: 1 of 3 pages, 2 failed, 1 written to stdout, 1 credits.');
  });

  it('reads as before when every page was done', () => {
    expect(summaryText('crawl', outcome({ skipped: 1, written: 2 }), 'out.jsonl')).toBe(
      'Crawl job-1 completed: 3 pages, 2 written to out.jsonl, 1 already there, 3 credits.',
    );
    expect(summaryText('crawl', outcome({ completed: 1, total: 1, written: 1 }), 'x')).toMatch(
      /completed: 1 page, /,
    );
  });

  it('exits with its own code when pages failed', () => {
    expect(exitCodeOf(new PagesFailed('2 of 3 pages failed'))).toBe(EXIT.PAGES_FAILED);
    expect(EXIT.PAGES_FAILED).not.toBe(EXIT.OK);
  });
});
