import { describe, expect, it } from 'vitest';
import { TabhiveError } from '../../../server/platform/errors/tabhive-error';
import { httpStatusOf } from '../../../server/api/http/error-status';
import { createLog } from '../../../server/platform/log/log';
import { createDerivationPool } from '../../../server/scrape/derive/create-derivation-pool';
import { deriveByKind } from '../../../server/scrape/derive/derive-by-kind';
import { runWithDeadline } from '../../../server/scrape/derive/scrape-deadline';
import { manyPagesPdf } from '../../helpers/hostile-documents';
import { capturedPage, markdownOptions } from '../../helpers/derivation-inputs';
import { minimalPdf } from '../../helpers/minimal-pdf';

const log = createLog({ quiet: true });
/** A PDF that takes its worker seconds: thousands of pages, every one read. */
const slowPdf = {
  ...capturedPage(''),
  contentType: 'application/pdf',
  pdfBase64: manyPagesPdf(5_000).toString('base64'),
};
const readEveryPage = { ...markdownOptions, pdf: { maxPages: 5_000 } };

const apiError = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) =>
      err instanceof TabhiveError ? { status: httpStatusOf(err), code: err.code, message: err.message } : err,
  );

// Workers take seconds to start on a loaded 2-core machine.
describe('the derivation pool under hostile work', { timeout: 90_000 }, () => {
  it('stops a job past its ceiling, replaces the worker, and serves the next job', async () => {
    const pool = createDerivationPool({ log, size: 1, jobCeilingMs: 1_500 });
    try {
      pool.warm();
      // The first job also waits for the worker to load; a warm-up page takes that wait.
      await pool.derive(capturedPage('<p>warm</p>'), markdownOptions);
      expect(await apiError(pool.derive(slowPdf, readEveryPage))).toMatchObject({
        status: 422,
        code: 'DERIVATION_LIMIT_EXCEEDED',
        message: expect.stringMatching(/took more than 2 s/),
      });
      // The pool has a worker again at once, and it works.
      expect(pool.workers()).toBe(1);
      expect((await pool.derive(capturedPage('<h1>After</h1>'), markdownOptions)).markdown).toBe('# After');
    } finally {
      await pool.close();
    }
  });

  it("stops a job at its scrape's deadline with 408 SCRAPE_TIMEOUT, queued or running", async () => {
    const pool = createDerivationPool({ log, size: 1 });
    try {
      pool.warm();
      await pool.derive(capturedPage('<p>warm</p>'), markdownOptions);
      const deadline = Date.now() + 1_000;
      const [running, queued] = await runWithDeadline(deadline, async () =>
        Promise.all([
          apiError(pool.derive(slowPdf, readEveryPage)),
          apiError(pool.derive(slowPdf, readEveryPage)),
        ]),
      );
      expect(running).toMatchObject({ status: 408, code: 'SCRAPE_TIMEOUT' });
      expect(queued).toMatchObject({ status: 408, code: 'SCRAPE_TIMEOUT' });
      expect((await pool.derive(capturedPage('<h1>Next</h1>'), markdownOptions)).markdown).toBe('# Next');
    } finally {
      await pool.close();
    }
  });

  it('reports jobs that wait too long for a worker, and stops reporting once they are served', async () => {
    const pool = createDerivationPool({ log, size: 1, jobCeilingMs: 3_000, waitAlarmMs: 200 });
    try {
      pool.warm();
      await pool.derive(capturedPage('<p>warm</p>'), markdownOptions);
      expect(pool.problems()).toEqual([]);
      const hog = apiError(pool.derive(slowPdf, readEveryPage));
      const waiting = pool.derive(capturedPage('<p>waits</p>'), markdownOptions);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(pool.problems()).toEqual([
        {
          reason: expect.stringMatching(/no page derivation worker has been free for \d+ s \(1 waiting\)/),
          wedged: false,
        },
      ]);
      await hog;
      await waiting;
      expect(pool.problems()).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it('with recycle, ends each worker after its job and starts a fresh one', async () => {
    const pool = createDerivationPool({ log, size: 1, recycle: true, name: 'document' });
    try {
      pool.warm();
      const pdfBase64 = minimalPdf(['One', 'Two']).toString('base64');
      const first = await pool.derive({ ...capturedPage(''), pdfBase64 }, markdownOptions);
      expect(first.pdfPages).toBe(2);
      expect(pool.workers()).toBe(1);
      expect((await pool.derive({ ...capturedPage(''), pdfBase64 }, markdownOptions)).markdown).toBe(
        'One\n\nTwo',
      );
    } finally {
      await pool.close();
    }
  });
});

describe('the derivation pool between teams', { timeout: 60_000 }, () => {
  it("takes teams in turn: one team's queue of jobs delays another team's by one job", async () => {
    const pool = createDerivationPool({ log, size: 1 });
    try {
      pool.warm();
      await pool.derive(capturedPage('<p>warm</p>'), markdownOptions);
      const done: string[] = [];
      const job = (teamId: string, name: string) =>
        runWithDeadline(
          Date.now() + 60_000,
          () => pool.derive(capturedPage(`<p>${name}</p>`), markdownOptions).then(() => void done.push(name)),
          teamId,
        );
      await Promise.all([job('team-a', 'a1'), job('team-a', 'a2'), job('team-a', 'a3'), job('team-b', 'b1')]);
      expect(done).toEqual(['a1', 'b1', 'a2', 'a3']);
    } finally {
      await pool.close();
    }
  });
});

describe('deriveByKind', () => {
  it('sends PDFs to the document pool and pages to the page pool', async () => {
    const seen: string[] = [];
    const derive = deriveByKind({
      pages: { derive: async () => (seen.push('pages'), { metadata: {}, pdfPages: 0 }) },
      documents: { derive: async () => (seen.push('documents'), { metadata: {}, pdfPages: 1 }) },
    });
    await derive(capturedPage('<p>x</p>'), markdownOptions);
    await derive({ ...capturedPage(''), pdfBase64: 'JVBERi0=' }, markdownOptions);
    expect(seen).toEqual(['pages', 'documents']);
  });
});
