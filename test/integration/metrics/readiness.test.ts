import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/api/app';
import { DEFAULT_TEAM, createStaticKeyring } from '../../../server/platform/auth/keyring';
import { silentLog } from '../../../server/platform/log/log';
import { createTabhiveMetrics } from '../../../server/platform/metrics/create-tabhive-metrics';
import type { ReadinessDeps } from '../../../server/api/observability/check-readiness';
import { instrumentDatabase } from '../../../server/platform/metrics/instrument-database';
import type { Scraper } from '../../../server/scrape/types/scraper';
import { createEmbeddedDatabase } from '../../../server/platform/store/embedded/create-embedded-database';
import { createResultStore } from '../../../server/platform/store/stores/result-store';
import { freePort } from '../../helpers/free-port';
import { hasSample, parsePrometheusText, sampleSum } from '../../helpers/prometheus-text';
import { serveApp } from '../../helpers/serve-app';
import { startTestTabhive } from '../../helpers/start-test-tabhive';

describe('a whole Tabhive without browsers', () => {
  it('is ready on the embedded store and serves /metrics without a token when none is set', async () => {
    const tabhive = await startTestTabhive({ browsers: 0 });
    try {
      const ready = await fetch(`${tabhive.url}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ready: true, store: 'ok', browsers: 0 });

      const response = await fetch(`${tabhive.url}/metrics`);
      expect(response.status).toBe(200);
      const samples = parsePrometheusText(await response.text());
      expect(sampleSum(samples, 'tabhive_page_tasks', { state: 'queued' })).toBe(0);
      expect(sampleSum(samples, 'tabhive_webhook_deliveries_pending')).toBe(0);
      expect(hasSample(samples, 'tabhive_browsers')).toBe(false);
      // The store was used at start (the default team, its key) and each operation timed.
      expect(sampleSum(samples, 'tabhive_store_operation_duration_seconds_count')).toBeGreaterThan(0);
    } finally {
      await tabhive.stop();
    }
  });

  it('is not ready while its MongoDB does not answer, and /metrics still answers', async () => {
    const port = await freePort();
    const tabhive = await startTestTabhive({
      browsers: 0,
      env: { MONGODB_URL: `mongodb://127.0.0.1:${port}/tabhive` },
    });
    try {
      const ready = await fetch(`${tabhive.url}/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        ready: false,
        store: 'unreachable',
        browsers: 0,
        reasons: ['the store does not answer'],
      });
      expect((await fetch(`${tabhive.url}/health`)).status).toBe(200);

      const response = await fetch(`${tabhive.url}/metrics`);
      expect(response.status).toBe(200);
      const samples = parsePrometheusText(await response.text());
      // Never read, so never shown; process metrics are there as ever.
      expect(hasSample(samples, 'tabhive_page_tasks')).toBe(false);
      expect(hasSample(samples, 'process_cpu_user_seconds_total')).toBe(true);
      expect(sampleSum(samples, 'tabhive_store_errors_total')).toBeGreaterThan(0);
    } finally {
      await tabhive.stop();
    }
  });
});

describe('GET /ready with its checks injected', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-ready-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  async function serveWith(readiness: ReadinessDeps) {
    const metrics = createTabhiveMetrics();
    const store = instrumentDatabase(await createEmbeddedDatabase({ dir, log: silentLog }), metrics);
    const app = createApp({
      log: silentLog,
      keyring: createStaticKeyring([{ apiKey: 'fc-0123456789abcdef0123456789abcdef', team: DEFAULT_TEAM }]),
      scraper: {} as Scraper,
      results: createResultStore(store),
      connectedBrowsers: () => 0,
      storeKind: 'embedded',
      observability: { metrics: { registry: metrics.registry }, readiness },
    });
    const api = await serveApp(app);
    return {
      ready: async () => {
        const response = await fetch(`${api.url}/ready`);
        return { status: response.status, body: (await response.json()) as unknown };
      },
      close: async () => {
        await api.close();
        await store.close().catch(() => undefined);
      },
    };
  }

  it('is not ready when it serves browser work and no browser is available', async () => {
    const served = await serveWith({
      pingStore: async () => undefined,
      browsersAvailable: async () => 0,
      servesBrowserWork: true,
    });
    try {
      expect(await served.ready()).toEqual({
        status: 503,
        body: {
          ready: false,
          store: 'ok',
          browsers: 0,
          reasons: ['no browser is available for browser work'],
        },
      });
    } finally {
      await served.close();
    }
  });

  it('counts browsers the injected function reports, e.g. across a cluster', async () => {
    const served = await serveWith({
      pingStore: async () => undefined,
      browsersAvailable: () => 5,
      servesBrowserWork: true,
    });
    try {
      expect(await served.ready()).toEqual({ status: 200, body: { ready: true, store: 'ok', browsers: 5 } });
    } finally {
      await served.close();
    }
  });

  it('is not ready once its database is closed, and says both reasons', async () => {
    const database = await createEmbeddedDatabase({ dir: path.join(dir, 'closed'), log: silentLog });
    await database.close();
    const served = await serveWith({
      pingStore: () => database.ping(),
      browsersAvailable: () => 0,
      servesBrowserWork: true,
    });
    try {
      expect(await served.ready()).toEqual({
        status: 503,
        body: {
          ready: false,
          store: 'unreachable',
          browsers: 0,
          reasons: ['the store does not answer', 'no browser is available for browser work'],
        },
      });
    } finally {
      await served.close();
    }
  });

  it('counts a store that does not answer in time as unreachable', async () => {
    const served = await serveWith({
      pingStore: () => new Promise<void>(() => undefined),
      browsersAvailable: () => 1,
      servesBrowserWork: false,
      storeTimeoutMs: 50,
    });
    try {
      expect(await served.ready()).toMatchObject({
        status: 503,
        body: { store: 'unreachable', browsers: 1 },
      });
    } finally {
      await served.close();
    }
  });
});
