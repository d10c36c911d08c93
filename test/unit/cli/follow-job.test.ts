import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../server/api/cli/tabhive/api-client';
import type { PageDocument } from '../../../server/api/cli/tabhive/api-responses';
import { followJob } from '../../../server/api/cli/tabhive/follow-job';
import type { PageSink } from '../../../server/api/cli/tabhive/page-sinks';

const page = (n: number): PageDocument => ({ markdown: `# ${n}`, metadata: { scrapeId: `id-${n}` } });

/**
 * A job's status route over a scripted list of results: `polls[i]` is what the results hold at the
 * i-th status read (a request that does not follow the `next` just given), served in pages of
 * `pageSize` with Tabhive's `next` rule.
 */
function scriptedJob(
  polls: { results: number[]; status: string; total: number; failed?: string[] }[],
  pageSize = 3,
) {
  let poll = -1;
  let advertised: number | undefined;
  const client = {
    base: new URL('http://tabhive.test/'),
    async get<S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S>> {
      if (path.endsWith('/errors'))
        return schema.parse({
          errors: (polls[Math.max(poll, 0)]?.failed ?? []).map((url) => ({ url, error: 'refused' })),
        });
      const skip = Number(new URL(path, 'http://tabhive.test').searchParams.get('skip') ?? 0);
      if (skip !== advertised) poll = Math.min(poll + 1, polls.length - 1);
      const state = polls[poll] ?? polls[polls.length - 1];
      if (state === undefined) throw new Error('no script');
      const data = state.results.slice(skip, skip + pageSize).map(page);
      const reached = skip + data.length;
      advertised = data.length > 0 && state.total > reached ? reached : undefined;
      return schema.parse({
        success: true,
        status: state.status,
        total: state.total,
        completed: state.results.length,
        data,
        ...(advertised === undefined ? {} : { next: `http://elsewhere.test/v2/crawl/x?skip=${advertised}` }),
      });
    },
    post: () => Promise.reject(new Error('not used')),
  } as unknown as ApiClient;
  return client;
}

function memorySink(known: string[] = []): PageSink & { pages: string[] } {
  const pages: string[] = [];
  return {
    known: new Set(known),
    target: 'memory',
    pages,
    async write(document) {
      pages.push(document.metadata?.scrapeId ?? '?');
    },
    async close() {},
  };
}

describe('followJob', () => {
  it('writes every page once while following next pages across polls', async () => {
    const sink = memorySink();
    const outcome = await followJob({
      client: scriptedJob([
        { results: [1, 2], status: 'scraping', total: 8 },
        { results: [1, 2, 3, 4, 5], status: 'scraping', total: 8 },
        { results: [1, 2, 3, 4, 5, 6, 7, 8], status: 'completed', total: 8 },
      ]),
      kind: 'crawl',
      id: 'x',
      sink,
      progress: undefined,
      pollIntervalMs: 0,
    });
    expect(sink.pages).toEqual(['id-1', 'id-2', 'id-3', 'id-4', 'id-5', 'id-6', 'id-7', 'id-8']);
    expect(outcome).toMatchObject({ status: 'completed', completed: 8, written: 8, skipped: 0 });
  });

  it('catches a page stored after a later one (the results moved under the cursor)', async () => {
    const sink = memorySink();
    await followJob({
      client: scriptedJob([
        // Page 3 completed before page 4 but was stored after it.
        { results: [1, 2, 4], status: 'scraping', total: 6 },
        { results: [1, 2, 3, 4, 5], status: 'scraping', total: 6 },
        { results: [1, 2, 3, 4, 5, 6], status: 'completed', total: 6 },
      ]),
      kind: 'crawl',
      id: 'x',
      sink,
      progress: undefined,
      pollIntervalMs: 0,
    });
    expect([...sink.pages].sort()).toEqual(['id-1', 'id-2', 'id-3', 'id-4', 'id-5', 'id-6']);
    expect(new Set(sink.pages).size).toBe(sink.pages.length);
  });

  it('skips the pages a resumed output holds', async () => {
    const sink = memorySink(['id-1', 'id-2', 'id-3']);
    const outcome = await followJob({
      client: scriptedJob([{ results: [1, 2, 3, 4, 5], status: 'completed', total: 5 }]),
      kind: 'batch',
      id: 'x',
      sink,
      progress: undefined,
      pollIntervalMs: 0,
    });
    expect(sink.pages).toEqual(['id-4', 'id-5']);
    expect(outcome).toMatchObject({ written: 2, skipped: 3 });
  });

  it('counts failed pages in the total, and shows them in the progress, as they fail', async () => {
    const updates: Array<[number, number, string, number?]> = [];
    const outcome = await followJob({
      // The status's total leaves failed pages out: 3 URLs, then 2 of them failed.
      client: scriptedJob([
        { results: [], status: 'scraping', total: 3 },
        { results: [1], status: 'scraping', total: 2, failed: ['http://a.test/x'] },
        { results: [1], status: 'completed', total: 1, failed: ['http://a.test/x', 'http://a.test/y'] },
      ]),
      kind: 'batch',
      id: 'x',
      sink: memorySink(),
      progress: { update: (...args) => updates.push(args), stop: () => undefined },
      pollIntervalMs: 0,
    });
    expect(outcome).toMatchObject({ status: 'completed', completed: 1, total: 3 });
    expect(outcome.failed).toEqual([
      { url: 'http://a.test/x', error: 'refused' },
      { url: 'http://a.test/y', error: 'refused' },
    ]);
    expect(updates[0]).toEqual([0, 3, 'scraping', 0]);
    expect(updates[1]).toEqual([1, 3, 'scraping', 1]);
    expect(updates.at(-1)).toEqual([1, 3, 'completed', 2]);
  });
});
