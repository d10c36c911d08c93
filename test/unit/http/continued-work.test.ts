import { describe, expect, it } from 'vitest';
import { createContinuedWork } from '../../../server/api/http/continued-work';
import { WorkContinues } from '../../../server/scrape';

/** A piece of work that outlives its first request, settled when the test says. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('work that outlives its request', () => {
  it('answers processing_continues, then hands the same work to the same request sent again', async () => {
    const continued = createContinuedWork();
    const work = deferred<string>();
    let starts = 0;
    const start = async () => {
      starts += 1;
      throw new WorkContinues(work.promise);
    };
    const first = await continued
      .run('team-a', { url: 'https://a.test/big.pdf' }, 50, start)
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(WorkContinues);
    expect(first).toMatchObject({
      kind: 'timed-out',
      code: 'SCRAPE_TIMEOUT',
      retryAfterSeconds: 10,
      details: { state: 'processing_continues', jobStatus: 'running', retryAfterSeconds: 10 },
    });
    // Still running when the retry's own wait ends: another 408, and the work is not started again.
    const second = await continued
      .run('team-a', { url: 'https://a.test/big.pdf' }, 20, start)
      .catch((e: unknown) => e);
    expect(second).toBeInstanceOf(WorkContinues);
    const third = continued.run('team-a', { url: 'https://a.test/big.pdf' }, 60_000, start);
    work.resolve('the document');
    await expect(third).resolves.toBe('the document');
    expect(starts).toBe(1);
    // Handed over once: the same request afterwards is new work.
    expect(continued.size()).toBe(0);
    await continued.run('team-a', { url: 'https://a.test/big.pdf' }, 50, start).catch(() => undefined);
    expect(starts).toBe(2);
  });

  it("never hands one team's work to another team, nor to a different request", async () => {
    const continued = createContinuedWork();
    const work = deferred<string>();
    await continued
      .run('team-a', { url: 'https://a.test/x.pdf' }, 50, () =>
        Promise.reject(new WorkContinues(work.promise)),
      )
      .catch(() => undefined);
    const ownWork: string[] = [];
    await continued.run('team-b', { url: 'https://a.test/x.pdf' }, 50, async () => {
      ownWork.push('team-b');
      return 'b';
    });
    await continued.run('team-a', { url: 'https://a.test/y.pdf' }, 50, async () => {
      ownWork.push('other request');
      return 'y';
    });
    expect(ownWork).toEqual(['team-b', 'other request']);
    work.resolve('done');
  });

  it('hands a failure over as the failure, once', async () => {
    const continued = createContinuedWork();
    const work = deferred<string>();
    await continued
      .run('t', { n: 1 }, 10, () => Promise.reject(new WorkContinues(work.promise)))
      .catch(() => undefined);
    work.reject(new Error('the PDF is broken'));
    await expect(continued.run('t', { n: 1 }, 1_000, () => Promise.resolve('new'))).rejects.toThrow(
      'the PDF is broken',
    );
    await expect(continued.run('t', { n: 1 }, 1_000, () => Promise.resolve('new'))).resolves.toBe('new');
  });

  it('keeps an unclaimed outcome for a while, then forgets it', async () => {
    const continued = createContinuedWork({ keepMs: 30 });
    const work = deferred<string>();
    await continued
      .run('t', { n: 2 }, 10, () => Promise.reject(new WorkContinues(work.promise)))
      .catch(() => undefined);
    work.resolve('kept');
    await work.promise;
    expect(continued.size()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(continued.size()).toBe(0);
  });
});
