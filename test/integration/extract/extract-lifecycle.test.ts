import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgress } from '../../../server/platform/egress/create-egress';
import { STOPPED_ERROR, createExtractService } from '../../../server/products/extract/create-extract-service';
import { silentLog } from '../../../server/platform/log/log';
import { createCachedCapture } from '../../../server/scrape/capture/cached-capture';
import { createScraper } from '../../../server/scrape/create-scraper';
import { createHttpFastPath } from '../../../server/scrape/capture/fast-path/create-http-fast-path';
import { createUrlPolicy } from '../../../server/platform/url-policy/create-url-policy';
import { deriveFetchedPage } from '../../../server/scrape/derive/derive-fetched-page';
import { ExtractRequestV2 } from '../../../shared/api/v2/extract-request';
import { startTestTabhive, waitUntil } from '../../helpers/start-test-tabhive';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';
import { startExtractSite, startWebhookReceiver } from './extract-site';

/**
 * What becomes of a running extract job when its server goes away: a graceful stop ends it as
 * failed at once; a job whose instance died is judged by the time since it last wrote, and a live
 * one keeps writing.
 */

let site: Awaited<ReturnType<typeof startExtractSite>>;
beforeAll(async () => {
  site = await startExtractSite();
});
afterAll(async () => {
  await site?.close();
});

describe('a server that stops while an extract runs', () => {
  it('ends the job as failed, which the next server start still answers, and sends extract.failed', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-extract-restart-'));
    const receiver = await startWebhookReceiver();
    try {
      const first = await startTestTabhive({ browsers: 0, dataDir });
      const started = await first.post('/v2/extract', {
        urls: [site.url('/slow.html')],
        prompt: 'What is slow?',
        webhook: receiver.url,
      });
      expect(started.status).toBe(200);
      const id = started.json.id as string;
      await waitUntil(() => site.hits.includes('/slow.html'), 10_000, 'the page to be requested');
      expect((await first.get(`/v2/extract/${id}`)).json.status).toBe('processing');
      const stopping = first.stop();
      site.release();
      await stopping;

      const second = await startTestTabhive({ browsers: 0, dataDir });
      try {
        const status = await second.get(`/v2/extract/${id}`);
        expect(status.json).toMatchObject({
          success: true,
          status: 'failed',
          data: null,
          error: STOPPED_ERROR,
        });
        await waitUntil(
          () => receiver.bodies.some((body) => body.type === 'extract.failed'),
          20_000,
          'the extract.failed webhook',
        );
        expect(receiver.bodies.find((body) => body.type === 'extract.failed')).toMatchObject({
          success: false,
          id,
          error: STOPPED_ERROR,
        });
      } finally {
        await second.stop();
      }
    } finally {
      await receiver.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a job that another instance runs', () => {
  const embedded = useEmbeddedStores();

  it('stays processing while its instance keeps writing, however long it runs', async () => {
    const { stores } = embedded;
    const egress = createEgress({ allowPrivateNetworks: true });
    const scraper = createScraper({
      runTask: () => Promise.reject(new Error('no browser in this test: every page is plain HTML')),
      urlPolicy: createUrlPolicy({ allowPrivateNetworks: true }),
      cachedCapture: createCachedCapture({ cache: stores.cache, log: silentLog }),
      results: stores.results,
      log: silentLog,
      fastPath: createHttpFastPath({ egress, deriveFetched: deriveFetchedPage }),
    });
    const runner = createExtractService({
      stores,
      scraper,
      log: silentLog,
      heartbeatMs: 50,
      stallAfterMs: 300,
    });
    const reader = createExtractService({ stores, scraper, log: silentLog, stallAfterMs: 300 });
    try {
      const request = ExtractRequestV2.parse({
        urls: [site.url('/slow.html'), site.url('/products/lamp.html')],
        schema: { type: 'object', properties: { brand: { type: 'string' } } },
      });
      const { id } = await runner.start('team-a', request, 'v2');
      // Several times the stall limit, read by an instance that does not run the job.
      for (let read = 0; read < 8; read++) {
        expect((await reader.status('team-a', id))?.status).toBe('processing');
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      expect(await reader.status('team-b', id)).toBeUndefined();
      site.release();
      await waitUntil(
        async () => (await reader.status('team-a', id))?.status === 'completed',
        20_000,
        'the job to complete',
      );
      expect((await reader.status('team-a', id))?.data).toEqual({ brand: 'Lumen' });
    } finally {
      await runner.stop();
      await egress.close();
    }
  });
});
