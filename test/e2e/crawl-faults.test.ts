import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlSite } from '../helpers/crawl-site';
import { ferretDbForTests, startFerretDb } from '../helpers/ferretdb';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

type Tabhive = Awaited<ReturnType<typeof startTestTabhive>>;

const SLOW_PAGES = 12;
/** `/slow/` and the pages it links to. */
const EXPECTED = SLOW_PAGES + 1;

let site: Awaited<ReturnType<typeof startCrawlSite>>;
beforeAll(async () => {
  site = await startCrawlSite({ slowMs: 500, slowPages: SLOW_PAGES });
});
afterAll(async () => {
  await site?.close();
});

const CRAWL = () => ({ url: site.url('/slow/'), sitemap: 'skip', scrapeOptions: { maxAge: 0 } });

async function completedOf(tabhive: Tabhive, id: string): Promise<number> {
  return (await tabhive.get(`/v2/crawl/${id}`)).json.completed as number;
}

/** Everything the store holds for a finished crawl: pages, distinct URLs and charges. */
async function audit(tabhive: Tabhive, id: string) {
  await waitUntil(
    async () => (await tabhive.get(`/v2/crawl/${id}`)).json.status === 'completed',
    90_000,
    'the crawl to complete',
  );
  const status = (await tabhive.get(`/v2/crawl/${id}?limit=1000`)).json;
  const urls = status.data.map((doc: { metadata: { sourceURL: string } }) => doc.metadata.sourceURL);
  const charges = (
    await tabhive.tabhive.stores.creditLedger.entriesForTeam('default', { limit: 10_000 })
  ).filter((entry) => entry.reason === `crawl ${id}`);
  return {
    documents: urls.length as number,
    distinct: new Set(urls).size,
    charges: charges.length,
    charged: charges.reduce((sum, entry) => sum + entry.credits, 0),
    creditsUsed: status.creditsUsed as number,
    completed: status.completed as number,
    total: status.total as number,
  };
}

const exact = {
  documents: EXPECTED,
  distinct: EXPECTED,
  charges: EXPECTED,
  charged: EXPECTED,
  creditsUsed: EXPECTED,
  completed: EXPECTED,
  total: EXPECTED,
};

describe('crawls survive faults: no page lost, none duplicated, none charged twice', () => {
  it('a browser killed mid-crawl: its pages run again on another browser', async () => {
    const tabhive = await startTestTabhive({ browsers: 2 });
    try {
      const { json } = await tabhive.post('/v2/crawl', CRAWL());
      await waitUntil(async () => (await completedOf(tabhive, json.id)) >= 3, 30_000, 'a few pages');
      const [victim] = tabhive.tabhive.launcher!.pids();
      process.kill(-victim!, 'SIGKILL');
      const result = await audit(tabhive, json.id);
      console.log('browser killed mid-crawl:', JSON.stringify(result));
      expect(result).toMatchObject(exact);
    } finally {
      await tabhive.stop();
    }
  });

  it('a server stopped mid-crawl: a new one on the same store resumes and completes it', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-restart-'));
    try {
      const first = await startTestTabhive({ dataDir });
      const { json } = await first.post('/v2/crawl', CRAWL());
      await waitUntil(async () => (await completedOf(first, json.id)) >= 3, 30_000, 'a few pages');
      const before = await completedOf(first, json.id);
      await first.stop();
      const second = await startTestTabhive({ dataDir });
      try {
        const result = await audit(second, json.id);
        console.log('server restarted mid-crawl after', before, 'pages:', JSON.stringify(result));
        expect(before).toBeLessThan(EXPECTED);
        expect(result).toMatchObject(exact);
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  const binary = ferretDbForTests();
  it.skipIf(binary === undefined)('two servers on one MongoDB (FerretDB) share a crawl', async () => {
    const ferret = await startFerretDb(binary!);
    // A team limit above the crawl, and servers that take at most 9 pages at once each (1 tab and
    // 8 fast-path pages): whichever is quicker to claim, the other must serve the rest of the 13.
    const env = { MONGODB_URL: ferret.url('tabhive_two'), TEAM_CONCURRENCY: '100', TABS_PER_BROWSER: '1' };
    const one = await startTestTabhive({ env });
    const two = await startTestTabhive({ env });
    const worked = { one: 0, two: 0 };
    const sampler = setInterval(() => {
      worked.one += one.tabhive.jobRunner.inFlight() > 0 ? 1 : 0;
      worked.two += two.tabhive.jobRunner.inFlight() > 0 ? 1 : 0;
    }, 50);
    try {
      const { json } = await one.post('/v2/crawl', CRAWL());
      const result = await audit(two, json.id);
      console.log('two instances on FerretDB:', JSON.stringify(result), JSON.stringify(worked));
      expect(result).toMatchObject(exact);
      expect(worked.one).toBeGreaterThan(0);
      expect(worked.two).toBeGreaterThan(0);
    } finally {
      clearInterval(sampler);
      await one.stop();
      await two.stop();
      await ferret.dispose();
    }
  });
});
