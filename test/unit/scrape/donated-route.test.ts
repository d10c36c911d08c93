import { describe, expect, it } from 'vitest';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import { httpStatusOf } from '../../../server/api/http/error-status';
import type { DonatedRoute } from '../../../server/browsers/hub/donated-routes';
import { TaskError } from '../../../server/browsers/hub/task-error';
import type { RunOptions } from '../../../server/browsers/hub/task-scheduler';
import { TabhiveError } from '../../../server/platform/errors/tabhive-error';
import { silentLog } from '../../../server/platform/log/log';
import { createUrlPolicy } from '../../../server/platform/url-policy/create-url-policy';
import { createCachedCapture } from '../../../server/scrape/capture/cached-capture';
import { createScraper } from '../../../server/scrape/create-scraper';
import type { ScrapeAdmission } from '../../../server/scrape/types';
import { stubLookup } from '../../helpers/stub-lookup';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

/**
 * Issue 38's first rule, in the pipeline: a URL one of the team's donated browsers allows is that
 * browser's alone, decided before the server resolves anything.
 */

const INTRANET = 'http://wiki.corp.test/handbook';
const intranetPage: PageCapture = {
  url: INTRANET,
  statusCode: 200,
  contentType: 'text/html',
  rawHtml:
    '<html><head><title>Handbook</title></head><body><h1>Handbook</h1><p>Only inside.</p></body></html>',
  renderedHtml:
    '<html><head><title>Handbook</title></head><body><h1>Handbook</h1><p>Only inside.</p></body></html>',
};
const browser = { id: 'donor-1', label: "Ana's Chrome" };

const embedded = useEmbeddedStores();

function setup(routeOf: (teamId: string) => DonatedRoute | undefined, outcome?: TaskError) {
  const tasks: Array<{ spec: PageTaskSpec; options: RunOptions }> = [];
  const fastPathCalls: string[] = [];
  const dns = stubLookup({ 'public.example.com': ['93.184.215.14'] });
  const scraper = createScraper({
    cachedCapture: createCachedCapture({ cache: embedded.stores.cache, log: silentLog }),
    results: embedded.stores.results,
    log: silentLog,
    runTask: async (spec, options) => {
      tasks.push({ spec, options });
      if (outcome !== undefined) throw outcome;
      return { ...intranetPage, donated: options.donatedOnly === true };
    },
    fastPath: {
      capture: async (target) => {
        fastPathCalls.push(target.href);
        return undefined;
      },
    },
    urlPolicy: createUrlPolicy({ allowPrivateNetworks: false, lookup: dns.lookup }),
    donatedRoutes: {
      routeFor: async (teamId, url) =>
        new URL(url).hostname === 'wiki.corp.test' ? routeOf(teamId) : undefined,
    },
  });
  return { scraper, tasks, fastPathCalls, dnsCalls: dns.calls };
}

const request = (body: Record<string, unknown>) => ScrapeRequestV2.parse(body);
const as = (teamId: string, admission: ScrapeAdmission = 'api') => ({ teamId, admission });

async function failure(promise: Promise<unknown>): Promise<TabhiveError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TabhiveError);
  return error as TabhiveError;
}

describe("a URL the team's donated browser allows", () => {
  it('goes to that browser only: no lookup, no fast path, no pool, and no cached copy for anyone else', async () => {
    const { scraper, tasks, fastPathCalls, dnsCalls } = setup((teamId) =>
      teamId === 'team-a' ? { browser, state: 'ready' } : undefined,
    );
    const document = await scraper.scrape(request({ url: INTRANET, formats: ['markdown'] }), as('team-a'));
    expect(document.markdown).toContain('Only inside.');
    expect(tasks).toHaveLength(1);
    expect(tasks[0]!.options).toMatchObject({ teamId: 'team-a', donatedOnly: true });
    expect(fastPathCalls).toEqual([]);
    expect(dnsCalls).toEqual([]);

    // Another team has no such browser: the server's own policy decides, and the name does not
    // resolve here; neither the page nor the first team's cached copy reaches it.
    const other = await failure(
      scraper.scrape(request({ url: INTRANET, formats: ['markdown'] }), as('team-b')),
    );
    expect(other.code).toBe('SCRAPE_DNS_RESOLUTION_ERROR');
    expect(tasks).toHaveLength(1);

    // The team itself gets its own copy from the cache.
    const again = await scraper.scrape(request({ url: INTRANET, formats: ['markdown'] }), as('team-a'));
    expect(again.metadata.cacheState).toBe('hit');
    expect(tasks).toHaveLength(1);
  });

  it('is refused at once, naming the browser, when that browser is offline and the caller waits', async () => {
    const since = new Date('2030-01-01T09:00:00Z');
    const { scraper, tasks, dnsCalls } = setup(() => ({ browser, state: 'offline', since }));
    const error = await failure(scraper.scrape(request({ url: INTRANET, maxAge: 0 }), as('team-a')));
    expect(error.code).toBe('DONATED_BROWSER_UNAVAILABLE');
    expect(httpStatusOf(error)).toBe(503);
    expect(error.message).toContain(
      `donated browser "Ana's Chrome", which is offline since ${since.toISOString()}`,
    );
    expect(tasks).toEqual([]);
    expect(dnsCalls).toEqual([]);
  });

  it("waits for the offline browser as a job's page, and names it if it never came", async () => {
    const { scraper, tasks } = setup(
      () => ({ browser, state: 'offline' }),
      new TaskError('DONATED_BROWSER_UNAVAILABLE', 'none took it'),
    );
    const error = await failure(
      scraper.scrape(request({ url: INTRANET, maxAge: 0, timeout: 5_000 }), as('team-a', 'job-page')),
    );
    expect(tasks).toHaveLength(1);
    expect(tasks[0]!.options).toMatchObject({ donatedOnly: true, priority: 'background', timeoutMs: 5_000 });
    expect(error.code).toBe('DONATED_BROWSER_UNAVAILABLE');
    expect(error.message).toContain('which is offline');
  });

  it('says the browser was busy when it did not take the task in time', async () => {
    const { scraper } = setup(
      () => ({ browser, state: 'busy' }),
      new TaskError('DONATED_BROWSER_UNAVAILABLE', 'none took it'),
    );
    const error = await failure(scraper.scrape(request({ url: INTRANET, maxAge: 0 }), as('team-a')));
    expect(error.message).toContain('which was busy');
  });

  it('is not routed with a browser profile, which only a launched browser holds: the URL is judged as any', async () => {
    const { scraper, tasks } = setup(() => ({ browser, state: 'ready' }));
    const error = await failure(
      scraper.scrape(request({ url: INTRANET, maxAge: 0, profile: { name: 'shop' } }), as('team-a')),
    );
    // The server's own policy answers for a name only the donor's network knows; nothing was sent.
    expect(error.code).toBe('SCRAPE_DNS_RESOLUTION_ERROR');
    expect(tasks).toEqual([]);
  });

  it('names the revoked browser that used to reach it, instead of a DNS error', async () => {
    const { scraper, tasks } = setup(() => ({ browser, state: 'revoked', since: new Date(0) }));
    const error = await failure(scraper.scrape(request({ url: INTRANET, maxAge: 0 }), as('team-a')));
    expect(error.code).toBe('DONATED_BROWSER_UNAVAILABLE');
    expect(error.message).toContain('which the team revoked');
    expect(tasks).toEqual([]);
  });
});

describe('a host that cannot be a site', () => {
  it.each(['examplecom', 'not-a-url'])(
    'answers 400 for %s, without advice to open private networks',
    async (url) => {
      const { scraper, tasks } = setup(() => undefined);
      const error = await failure(scraper.scrape(request({ url }), as('team-a')));
      expect(httpStatusOf(error)).toBe(400);
      expect(error.code).toBe('BAD_REQUEST');
      expect(error.message).toContain('The URL looks wrong');
      expect(error.message).not.toContain('ALLOW_PRIVATE_NETWORKS');
      expect(tasks).toEqual([]);
    },
  );
});
