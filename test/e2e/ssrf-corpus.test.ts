import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_SITE_ADDRESS, HOSTILE_SITE_NAME, startHostileSite } from '../helpers/hostile-site';
import { INTERNAL_SECRET, startInternalService } from '../helpers/internal-service';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';
import { stubLookup } from '../helpers/stub-lookup';

/**
 * The SSRF corpus (docs/security.md#ssrf-corpus): a Tabhive with private networks
 * refused, an "internal service" listening on loopback (IPv4 and IPv6, one port) that counts
 * connections, and an attacker's site on the one private address the operator allowed
 * (ALLOWED_PRIVATE_HOSTS), reached under a public-looking name. Every vector is refused in
 * Firecrawl's error shape, and after each test the internal service has seen no connection.
 * `{P}` is the internal service's port, `{F}` the attacker site's.
 */

/** Caller-supplied URLs the server refuses before any browser or socket is involved. */
const SERVER_VECTORS: readonly string[] = [
  // IPv4 loopback in every spelling the URL parser turns into 127.0.0.1
  'http://127.0.0.1:{P}/',
  'http://2130706433:{P}/',
  'http://0x7f000001:{P}/',
  'http://017700000001:{P}/',
  'http://0x7f.1:{P}/',
  'http://127.1:{P}/',
  'http://0177.0.0.1:{P}/',
  'http://127.000.000.001:{P}/',
  'http://127。0。0。1:{P}/',
  'http://%31%32%37.0.0.1:{P}/',
  'http://127.0.0.1.:{P}/',
  'http://127.255.255.254:{P}/',
  // the unspecified address, which Linux connects to loopback
  'http://0:{P}/',
  'http://0.0.0.0:{P}/',
  // IPv6 loopback, unspecified, mapped, compatible and translated forms
  'http://[::1]:{P}/',
  'http://[0:0:0:0:0:0:0:1]:{P}/',
  'http://[::]:{P}/',
  'http://[::ffff:127.0.0.1]:{P}/',
  'http://[::ffff:7f00:1]:{P}/',
  'http://[0:0:0:0:0:ffff:127.0.0.1]:{P}/',
  'http://[::127.0.0.1]:{P}/',
  'http://[64:ff9b::127.0.0.1]:{P}/',
  'http://[64:ff9b:1::7f00:1]:{P}/',
  'http://[2002:7f00:1::1]:{P}/',
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:{P}/',
  'http://[fe80::1]:{P}/',
  'http://[fec0::1]:{P}/',
  'http://[fc00::1]:{P}/',
  'http://[fd12:3456::1]:{P}/',
  'http://[ff02::1]:{P}/',
  // cloud metadata, as addresses, encodings and names
  'http://169.254.169.254/latest/meta-data/',
  'http://0xa9fea9fe/latest/meta-data/',
  'http://2852039166/latest/meta-data/',
  'http://0251.0376.0251.0376/latest/meta-data/',
  'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://169.254.170.2/v2/credentials',
  'http://100.100.100.200/latest/meta-data/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://metadata/computeMetadata/v1/',
  // private, shared and special IPv4 ranges (172.16/12 is Firecrawl #2070)
  'http://10.0.0.1:{P}/',
  'http://172.16.0.5:{P}/',
  'http://172.31.255.255:{P}/',
  'http://192.168.1.1:{P}/',
  'http://100.64.0.1:{P}/',
  'http://198.18.0.1:{P}/',
  'http://192.0.0.1:{P}/',
  'http://224.0.0.1:{P}/',
  'http://240.0.0.1:{P}/',
  'http://255.255.255.255:{P}/',
  // names that are local by convention
  'http://localhost:{P}/',
  'http://localhost.:{P}/',
  'http://LOCALHOST:{P}/',
  'http://admin.localhost:{P}/',
  'http://intranet:{P}/',
  'http://printer.local:{P}/',
  'http://db.internal:{P}/',
  'http://router.lan:{P}/',
  'http://nas.home.arpa:{P}/',
  // public-looking names whose DNS answers are private (the server's resolver is stubbed)
  'http://127.0.0.1.nip.io:{P}/',
  'http://multi.test:{P}/',
  'http://mapped.test:{P}/',
  'http://v6.test:{P}/',
  'http://rfc1918.test:{P}/',
  'http://meta.test/latest/meta-data/',
  // userinfo, fragment and backslash confusions
  'http://127.0.0.1:{P}#@front.test/',
  'http://127.0.0.1:{P}\\@front.test/',
];

/** Credentials in the URL: the request schema (400) or the policy (403) refuses them. */
const USERINFO_VECTORS: readonly string[] = [
  'http://front.test@127.0.0.1:{P}/',
  'http://user:pass@front.test:{F}/',
  'http://front.test:{F}@127.0.0.1:{P}/',
];

/** Schemes other than http(s): refused by the request schema (400) or the policy (403). */
const SCHEME_VECTORS: readonly string[] = [
  'file:///etc/passwd',
  'gopher://127.0.0.1:{P}/_GET',
  'ftp://127.0.0.1:{P}/',
  'data:text/html,<h1>hi</h1>',
  'javascript:alert(1)',
  'dict://127.0.0.1:{P}/',
];

/** Targets the browser is sent to on the attacker's site, which then points it inward. */
const BROWSER_VECTORS: readonly string[] = [
  '/redirect?to=http://127.0.0.1:{P}/',
  '/redirect?to=http://localhost:{P}/',
  '/redirect?to=http://[::1]:{P}/',
  '/redirect?to=http://[::ffff:7f00:1]:{P}/',
  '/redirect?to=http://0.0.0.0:{P}/',
  '/redirect?to=http://169.254.169.254/latest/meta-data/',
  '/redirect?to=http://intranet:{P}/',
  '/redirect?to=/redirect%3Fto=http://0x7f.1:{P}/',
  '/redirect?to=http://front.test:{F}/redirect%3Fto=http://2130706433:{P}/',
  '/meta?to=http://127.0.0.1:{P}/',
  '/script?to=http://[::1]:{P}/',
  '/redirect?to=http://127.0.0.1:{P}/report.pdf',
];

/** Internal URLs the attacker's pages, sitemap and robots.txt point to. */
const INTERNAL_TARGETS: readonly string[] = [
  'http://127.0.0.1:{P}/a',
  'http://[::1]:{P}/b',
  'http://localhost:{P}/c',
  'http://0.0.0.0:{P}/d',
  'http://[::ffff:7f00:1]:{P}/e',
  'http://intranet:{P}/f',
  'http://printer.local:{P}/g',
  'http://169.254.169.254/h',
  'http://10.0.0.1:{P}/i',
];

/** The server's DNS; names not here do not exist. */
const DNS: Record<string, string[]> = {
  [HOSTILE_SITE_NAME]: [HOSTILE_SITE_ADDRESS],
  '127.0.0.1.nip.io': ['127.0.0.1'],
  'multi.test': ['93.184.215.14', '127.0.0.1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'v6.test': ['::1'],
  'rfc1918.test': ['172.16.0.5'],
  'meta.test': ['169.254.169.254'],
  'hook.test': ['127.0.0.1'],
  // A single-label name the network's resolver knows: a real intranet host (one it does not know
  // is a typo, a 400 that says so, below).
  intranet: ['127.0.0.1'],
  // Public for the server, loopback for the browser: a rebinding name.
  'rebind.test': ['93.184.215.14'],
};

let internal: Awaited<ReturnType<typeof startInternalService>>;
let rebindTarget: Awaited<ReturnType<typeof startInternalService>>;
let site: Awaited<ReturnType<typeof startHostileSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

const fill = (template: string) =>
  template.replaceAll('{P}', String(internal.port)).replaceAll('{F}', String(site.port));

beforeAll(async () => {
  internal = await startInternalService();
  rebindTarget = await startInternalService();
  site = await startHostileSite({ internal: () => INTERNAL_TARGETS.map(fill) });
  tabhive = await startTestTabhive({
    env: { ALLOW_PRIVATE_NETWORKS: 'false', ALLOWED_PRIVATE_HOSTS: HOSTILE_SITE_ADDRESS },
    lookup: stubLookup(DNS).lookup,
    // The browser's own DNS for the same names; the rest of .test, .local... does not resolve.
    extraChromeArgs: [
      `--host-resolver-rules=MAP ${HOSTILE_SITE_NAME} ${HOSTILE_SITE_ADDRESS}, MAP rebind.test 127.0.0.1, ` +
        'MAP intranet 127.0.0.1, MAP *.local 127.0.0.1, MAP *.nip.io 127.0.0.1, MAP multi.test 127.0.0.1',
    ],
  });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
  await internal?.close();
  await rebindTarget?.close();
});

afterEach(() => {
  const { connections, requests } = internal.takeCounts();
  expect(requests, 'requests that reached the internal service').toEqual([]);
  expect(connections, 'connections the internal service accepted').toBe(0);
});

/** Firecrawl's error envelope, and not a byte of the internal service's answer. */
function expectRefused(response: { status: number; json: unknown }, code = 'URL_BLOCKED') {
  expect(JSON.stringify(response.json)).not.toContain(INTERNAL_SECRET);
  expect(response.json).toMatchObject({ success: false, error: expect.any(String) });
  if (code === 'URL_BLOCKED') {
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ code: 'URL_BLOCKED' });
  } else expect([400, 403]).toContain(response.status);
}

async function finishedJob(kind: 'crawl' | 'batch/scrape', id: string) {
  let status: { status: number; json: { status: string; data: unknown[] } } | undefined;
  await waitUntil(
    async () => {
      status = await tabhive.get(`/v2/${kind}/${id}`);
      return status.json.status !== 'scraping';
    },
    60_000,
    `${kind} ${id} to finish`,
  );
  return status!.json;
}

describe('the SSRF corpus', () => {
  it('has at least 60 vectors', () => {
    const total =
      SERVER_VECTORS.length +
      USERINFO_VECTORS.length +
      SCHEME_VECTORS.length +
      BROWSER_VECTORS.length +
      INTERNAL_TARGETS.length;
    expect(total).toBeGreaterThanOrEqual(60);
  });

  it('reaches the allowed site, so the refusals below are the policy and not a broken setup', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', { url: site.url('/') });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('Front page');
  });

  it.each(SERVER_VECTORS)('refuses %s through /v2/scrape', async (template) => {
    expectRefused(await tabhive.post('/v2/scrape', { url: fill(template) }));
  });

  it.each(SERVER_VECTORS.slice(0, 12))('refuses %s through /v1/scrape', async (template) => {
    expectRefused(await tabhive.post('/v1/scrape', { url: fill(template) }));
  });

  it.each(USERINFO_VECTORS)('refuses the credentials in %s', async (template) => {
    expectRefused(await tabhive.post('/v2/scrape', { url: fill(template) }), 'any');
  });

  it.each(['http://examplecom/', 'not-a-url'])(
    'answers 400 for %s, a host that cannot be a site, without advice to open private networks',
    async (url) => {
      const { status, json } = await tabhive.post('/v2/scrape', { url });
      expect(status).toBe(400);
      expect(json).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      expect(json.error).toContain('The URL looks wrong');
      expect(json.error).not.toContain('ALLOW_PRIVATE_NETWORKS');
    },
  );

  it.each(SCHEME_VECTORS)('refuses the scheme of %s', async (template) => {
    expectRefused(await tabhive.post('/v2/scrape', { url: fill(template) }), 'any');
  });

  it.each(BROWSER_VECTORS)('refuses front.test%s in the browser', async (path) => {
    expectRefused(await tabhive.post('/v2/scrape', { url: site.url(fill(path)), timeout: 20_000 }));
  });

  // Off, both lift a rule for the tab with an allow rule (ads, media): neither may lift the address blocks.
  it.each([true, false])(
    'blocks every request a page makes inward, and keeps the page (blockAds and blockMedia %s)',
    async (blockAds) => {
      const { status, json } = await tabhive.post('/v2/scrape', {
        url: site.url(`/hostile?ads=${blockAds}`),
        formats: ['markdown', 'rawHtml'],
        waitFor: 1_000,
        blockAds,
        blockMedia: blockAds,
      });
      expect(status).toBe(200);
      expect(json.data.markdown).toContain('Hostile page');
      expect(JSON.stringify(json)).not.toContain(INTERNAL_SECRET);
    },
  );

  it('fails a task whose public-looking name lands on loopback, without its content', async () => {
    const response = await tabhive.post('/v2/scrape', { url: `http://rebind.test:${rebindTarget.port}/` });
    expectRefused(response);
    expect(response.json.error).toContain('127.0.0.1');
  });

  it('fails a redirect to a name that lands on loopback, without its content', async () => {
    const target = `http://rebind.test:${rebindTarget.port}/`;
    expectRefused(await tabhive.post('/v2/scrape', { url: site.url(`/redirect?to=${target}`) }));
  });

  it('crawls the attacker site without following its links, sitemap or robots.txt inward', async () => {
    const started = await tabhive.post('/v2/crawl', {
      url: site.url('/links'),
      allowExternalLinks: true,
      sitemap: 'include',
      limit: 50,
    });
    expect(started.status).toBe(200);
    const job = await finishedJob('crawl', started.json.id as string);
    expect(JSON.stringify(job)).not.toContain(INTERNAL_SECRET);
    const { json } = await tabhive.get(`/v2/crawl/${started.json.id as string}/errors`);
    expect(JSON.stringify(json)).toContain('URL_BLOCKED');
  });

  it.each(['http://127.0.0.1:{P}/', 'http://localhost:{P}/', 'http://multi.test:{P}/', 'http://0x7f.1:{P}/'])(
    'refuses a crawl of %s when it is submitted',
    async (template) => {
      expectRefused(await tabhive.post('/v2/crawl', { url: fill(template), limit: 5 }));
      expectRefused(await tabhive.post('/v1/crawl', { url: fill(template), limit: 5 }));
    },
  );

  it('batch scrapes internal URLs to nothing', async () => {
    const started = await tabhive.post('/v2/batch/scrape', { urls: INTERNAL_TARGETS.map(fill) });
    const job = await finishedJob('batch/scrape', started.json.id as string);
    expect(job.data).toEqual([]);
    expect(JSON.stringify(job)).not.toContain(INTERNAL_SECRET);
  });

  it.each([
    'http://127.0.0.1:{P}/hook',
    'http://[::1]:{P}/hook',
    'http://localhost:{P}/hook',
    'http://hook.test:{P}/hook',
    'http://0x7f.1:{P}/hook',
    'http://169.254.169.254/hook',
  ])('refuses the webhook %s when the job is submitted', async (template) => {
    expectRefused(await tabhive.post('/v2/crawl', { url: site.url('/'), limit: 1, webhook: fill(template) }));
    expectRefused(
      await tabhive.post('/v2/batch/scrape', { urls: [site.url('/')], webhook: { url: fill(template) } }),
    );
  });
});
