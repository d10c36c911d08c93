import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/platform/store/open-database';
import { createStores } from '../../server/platform/store/create-stores';
import { silentLog } from '../../server/platform/log/log';
import { startApiProcess, startNodeProcess, type ClusterProcess } from '../helpers/cluster-processes';
import { ferretDbForTests, startFerretDb, type FerretDb } from '../helpers/ferretdb';
import { TEST_API_KEY, waitUntil } from '../helpers/start-test-tabhive';
import { startTcpBalancer } from '../helpers/tcp-balancer';
import { startTreeSite } from '../helpers/tree-site';

const ADMIN_API_KEY = 'admin-key-for-the-cluster-fault-test-01';
const CRAWL_PAGES = 160;
const SCRAPES = 120;
/** Each page answers this late, so that work is in flight on every part when two of them die. */
const PAGE_DELAY_MS = 200;
const binary = ferretDbForTests();

type Api = Awaited<ReturnType<typeof startApiProcess>>;

/** What one client-side scrape came to, after retrying retryable failures on the next instance. */
interface ScrapeOutcome {
  ok: boolean;
  scrapeId?: string;
  attempts: Array<{ instance: number; outcome: string }>;
}

/** HTTP answers a client may retry: overload, a timeout, a server that is going or gone. */
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

describe.skipIf(binary === undefined)(
  'a cluster on one machine: 3 API instances, 2 browser nodes, one MongoDB',
  () => {
    let ferret: FerretDb | undefined;
    const processes: ClusterProcess[] = [];
    const closers: Array<() => Promise<void>> = [];
    afterAll(async () => {
      for (const proc of processes) proc.killHard();
      await Promise.all(processes.map((proc) => proc.stop().catch(() => undefined)));
      for (const close of closers) await close();
      await ferret?.stop();
    });

    it('kill -9 one instance and one node mid-crawl and mid-scrapes: the crawl is exact, every scrape answers, nothing is charged twice', async () => {
      ferret = await startFerretDb(binary!);
      const site = await startTreeSite({ pages: CRAWL_PAGES, delayMs: PAGE_DELAY_MS });
      closers.push(site.close);
      const env = {
        MONGODB_URL: ferret.url('tabhive_cluster'),
        API_KEY: TEST_API_KEY,
        ADMIN_API_KEY,
        // Every page in a browser: the fast path would serve this site without one.
        HTTP_FAST_PATH: 'false',
        TEAM_CONCURRENCY: '1000',
        TABS_PER_BROWSER: '3',
      };
      // One after the other: the first creates the indexes the others find.
      const apis: Api[] = [];
      for (let i = 0; i < 3; i += 1) {
        const api = await startApiProcess(env);
        apis.push(api);
        processes.push(api);
      }
      const balancer = await startTcpBalancer(apis.map((api) => api.port));
      closers.push(balancer.close);

      const created = await fetch(`${apis[0]!.url}/admin/v1/node-tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ label: 'cluster test' }),
      }).then((response) => response.json() as Promise<{ data: { token: string } }>);
      const nodes = [0, 1].map(() =>
        startNodeProcess({
          serverUrl: `http://127.0.0.1:${balancer.port}`,
          token: created.data.token,
          browsers: 2,
        }),
      );
      processes.push(...nodes);
      const browsersOn = async (api: Api) =>
        ((await (await fetch(`${api.url}/health`)).json()) as { browsers: number }).browsers;
      await waitUntil(
        async () => (await Promise.all(apis.map(browsersOn))).reduce((a, b) => a + b, 0) === 4,
        60_000,
        'the nodes’ 4 browsers to join through the balancer',
      );
      const placement = await Promise.all(apis.map(browsersOn));

      const api = (index: number) => apis[index % apis.length] as Api;
      const post = (index: number, pathname: string, body: unknown) =>
        fetch(`${api(index).url}${pathname}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });

      const crawl = (await (
        await post(0, '/v2/crawl', {
          url: site.url('/t/1.html'),
          limit: 1_000,
          sitemap: 'skip',
          crawlEntireDomain: true,
          scrapeOptions: { formats: ['markdown'], maxAge: 0 },
        })
      ).json()) as { id: string };
      const crawlStatus = async () =>
        (await (
          await fetch(`${api(0).url}/v2/crawl/${crawl.id}`, {
            headers: { authorization: `Bearer ${TEST_API_KEY}` },
          })
        ).json()) as { status: string; completed: number; total: number; creditsUsed: number };

      /** A client that sends scrape i to instance i mod 3 and retries a retryable failure on the next one. */
      const scrape = async (i: number): Promise<ScrapeOutcome> => {
        const attempts: ScrapeOutcome['attempts'] = [];
        for (let attempt = 0; attempt < 6; attempt += 1) {
          const instance = (i + attempt) % apis.length;
          try {
            const response = await post(instance, '/v2/scrape', {
              url: site.url(`/s/${i}.html`),
              formats: ['markdown'],
              maxAge: 0,
              // A scrape whose task was lost with the killed parts fails in a minute (408, which the
              // client retries) rather than at the 5-minute default.
              timeout: 60_000,
            });
            const body = (await response.json()) as {
              data?: { markdown?: string; metadata?: { scrapeId?: string } };
              code?: string;
            };
            if (response.status === 200 && body.data?.markdown?.includes(`Single ${i}`)) {
              attempts.push({ instance, outcome: 'ok' });
              return { ok: true, scrapeId: body.data.metadata?.scrapeId as string, attempts };
            }
            attempts.push({ instance, outcome: `${response.status} ${body.code ?? ''}` });
            if (!RETRYABLE_STATUS.has(response.status)) return { ok: false, attempts };
          } catch (err) {
            // The connection failed or was cut: the instance is gone, a retryable failure.
            attempts.push({ instance, outcome: `network ${(err as Error).cause ?? (err as Error).message}` });
          }
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        return { ok: false, attempts };
      };
      const startedAt = Date.now();
      // The middle of both: part of the crawl done, then scrapes in flight everywhere.
      await waitUntil(async () => (await crawlStatus()).completed >= 40, 120_000, 'part of the crawl').catch(
        async (err: unknown) => {
          console.log('crawl status:', JSON.stringify(await crawlStatus()));
          for (const proc of processes) console.log(proc.output().slice(-3_000));
          throw err;
        },
      );
      let answered = 0;
      const scrapes = Promise.all(
        Array.from({ length: SCRAPES }, (_, i) =>
          scrape(i).finally(() => {
            answered += 1;
          }),
        ),
      );
      await waitUntil(() => answered >= SCRAPES / 10, 60_000, 'a tenth of the scrapes');
      const completedAtKill = (await crawlStatus()).completed;
      const answeredAtKill = answered;
      const killedAt = Date.now();
      apis[1]!.killHard();
      nodes[0]!.killHard();

      const outcomes = await scrapes;
      await waitUntil(
        async () => (await crawlStatus()).status === 'completed',
        300_000,
        'the crawl to complete',
      );
      const final = await crawlStatus();
      const seconds = { toKill: (killedAt - startedAt) / 1000, afterKill: (Date.now() - killedAt) / 1000 };

      // The store's own account, read directly. The killed instance's credit reservations go back
      // once its registry record has expired (seconds), not at the hourly sweep.
      const database = await openDatabase({
        mongodbUrl: env.MONGODB_URL,
        dataDir: '/nonexistent',
        log: silentLog,
      });
      const stores = createStores(database);
      const readLedger = () => stores.creditLedger.entriesForTeam('default', { limit: 100_000 });
      // On FerretDB, whose `$inc` loses updates between processes, the team's running total is also
      // set back to the ledger's sum within seconds of the last charge (cluster/create-cluster.ts).
      const settled = async () => {
        const entries = await readLedger();
        const used = (await stores.teams.get('default'))?.creditsUsed;
        return (
          entries.every((entry) => entry.state !== 'reserved') &&
          used === entries.reduce((sum, entry) => sum + entry.credits, 0)
        );
      };
      await waitUntil(settled, 60_000, 'the credits to settle').catch(() => undefined);
      const ledger = await readLedger();
      const team = await stores.teams.get('default');
      await database.close();
      const crawlCharges = ledger.filter((entry) => entry.reason === `crawl ${crawl.id}`);
      const scrapeCharges = ledger.filter((entry) => entry.reason === 'scrape');
      const charged = scrapeCharges.filter((entry) => entry.state !== 'reserved');
      const reservedLeft = scrapeCharges.filter((entry) => entry.state === 'reserved');
      const succeeded = outcomes.filter((outcome) => outcome.ok);
      const succeededIds = new Set(succeeded.map((outcome) => outcome.scrapeId));
      const chargedIds = new Set(charged.map((entry) => entry._id.replace(/^scrape:/, '')));
      const retried = outcomes.filter((outcome) => outcome.attempts.length > 1);
      const failures = outcomes.filter((outcome) => !outcome.ok);
      const chargedWithoutAnswer = [...chargedIds].filter((id) => !succeededIds.has(id));

      console.log(
        'cluster fault test:',
        JSON.stringify({
          placement,
          seconds,
          completedAtKill,
          answeredAtKill,
          crawl: {
            status: final.status,
            completed: final.completed,
            total: final.total,
            creditsUsed: final.creditsUsed,
          },
          crawlCharges: crawlCharges.length,
          scrapes: { succeeded: succeeded.length, retried: retried.length, failed: failures.length },
          retriedBecause: [
            ...new Set(retried.flatMap((outcome) => outcome.attempts.slice(0, -1).map((a) => a.outcome))),
          ],
          charged: charged.length,
          chargedWithoutAnswer: chargedWithoutAnswer.length,
          reservedLeft: reservedLeft.length,
          teamCreditsUsed: team?.creditsUsed,
        }),
      );
      if (failures.length > 0) console.log('failed scrapes:', JSON.stringify(failures.slice(0, 5)));

      // The crawl: every page once, each charged once.
      expect(completedAtKill).toBeLessThan(CRAWL_PAGES);
      expect(answeredAtKill).toBeLessThan(SCRAPES);
      expect(final).toMatchObject({
        status: 'completed',
        completed: CRAWL_PAGES,
        total: CRAWL_PAGES,
        creditsUsed: CRAWL_PAGES,
      });
      expect(crawlCharges).toHaveLength(CRAWL_PAGES);
      expect(crawlCharges.reduce((sum, entry) => sum + entry.credits, 0)).toBe(CRAWL_PAGES);
      // Every scrape answered (after retrying what failed retryably on another instance).
      expect(failures).toEqual([]);
      // Every answered scrape charged exactly once; a charge without an answer can only be a scrape
      // whose instance died between booking it and sending it (its client retried it elsewhere).
      for (const outcome of succeeded) expect(chargedIds.has(outcome.scrapeId as string)).toBe(true);
      expect(charged.every((entry) => entry.credits === 1)).toBe(true);
      expect(chargedWithoutAnswer.length).toBeLessThanOrEqual(
        outcomes.filter((outcome) =>
          outcome.attempts.some((a) => a.instance === 1 && a.outcome.startsWith('network')),
        ).length,
      );
      // Nothing stays reserved, and the team's balance is the ledger's sum: the credits end exact.
      expect(reservedLeft).toEqual([]);
      expect(team?.creditsUsed).toBe(ledger.reduce((sum, entry) => sum + entry.credits, 0));
      expect(team?.creditsUsed).toBe(CRAWL_PAGES + charged.length);
    }, 600_000);
  },
);
