import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/api/app';
import { DEFAULT_TEAM, createStaticKeyring } from '../../../server/platform/auth/keyring';
import { createLog, silentLog } from '../../../server/platform/log/log';
import type { WorkProblem } from '../../../server/api/observability/check-readiness';
import { createTabhiveMetrics } from '../../../server/platform/metrics/create-tabhive-metrics';
import type { Scraper } from '../../../server/scrape/types/scraper';
import type { ResultStore } from '../../../server/platform/store/stores/result-store';
import { createDerivationPool } from '../../../server/scrape/derive/create-derivation-pool';
import { manyPagesPdf } from '../../helpers/hostile-documents';
import { serveApp } from '../../helpers/serve-app';

/** /ready and /health of an app whose work reports `workProblems`. */
async function serveWithWork(workProblems: () => WorkProblem[]) {
  const app = createApp({
    log: silentLog,
    keyring: createStaticKeyring([{ apiKey: 'fc-0123456789abcdef0123456789abcdef', team: DEFAULT_TEAM }]),
    scraper: {} as Scraper,
    results: {} as ResultStore,
    connectedBrowsers: () => 0,
    storeKind: 'embedded',
    observability: {
      metrics: { registry: createTabhiveMetrics().registry },
      readiness: {
        pingStore: () => Promise.resolve(),
        browsersAvailable: () => 0,
        servesBrowserWork: false,
        workProblems,
      },
    },
  });
  const api = await serveApp(app);
  const get = async (pathname: string) => {
    const response = await fetch(`${api.url}${pathname}`);
    return { status: response.status, json: (await response.json()) as unknown };
  };
  return { get, close: () => api.close() };
}

const pool = createDerivationPool({ log: createLog({ quiet: true }), size: 1, waitAlarmMs: 300 });
afterAll(() => pool.close());

describe('/ready and /health with stuck work', { timeout: 60_000 }, () => {
  it('answers /ready 503 with the reason while no derivation worker is free, and 200 again after', async () => {
    const api = await serveWithWork(() => pool.problems());
    try {
      expect(await api.get('/ready')).toEqual({
        status: 200,
        json: { ready: true, store: 'ok', browsers: 0 },
      });
      const capture = {
        url: 'https://example.test/a.pdf',
        statusCode: 200,
        rawHtml: '',
        renderedHtml: '',
        pdfBase64: manyPagesPdf(5_000).toString('base64'),
      };
      const options = {
        formats: new Set(['markdown' as const]),
        onlyMainContent: false,
        removeBase64Images: true,
        parsePdf: true,
        pdf: { maxPages: 5_000 },
      };
      // One job holds the only worker (loading it first), the next ones wait past the alarm.
      const work = [pool.derive(capture, options), pool.derive(capture, options)];
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const stuck = await api.get('/ready');
      expect(stuck).toEqual({
        status: 503,
        json: {
          ready: false,
          store: 'ok',
          browsers: 0,
          reasons: [
            expect.stringMatching(/^no page derivation worker has been free for \d+ s \(1 waiting\)$/),
          ],
        },
      });
      // Behind is not dead: liveness stays ok.
      expect(await api.get('/health')).toEqual({
        status: 200,
        json: { ok: true, browsers: 0, store: 'embedded' },
      });
      await Promise.all(work);
      expect((await api.get('/ready')).status).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('answers /health 503 with ok false while a worker that ran out of time does not stop', async () => {
    const reason = 'a document derivation worker has run past its time limit and does not stop';
    const api = await serveWithWork(() => [{ reason, wedged: true }]);
    try {
      expect(await api.get('/health')).toEqual({
        status: 503,
        json: { ok: false, browsers: 0, store: 'embedded', problems: [reason] },
      });
      expect(await api.get('/ready')).toMatchObject({ status: 503, json: { reasons: [reason] } });
    } finally {
      await api.close();
    }
  });
});
