import { Server as ProxyServer } from 'proxy-chain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBotDetectionSite, type DetectorReport } from '../helpers/bot-detection-site';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * Launched browsers against real detectors served on loopback (test/fixtures/bot-detection):
 * BotD 2.0 from npm and the consistency checks of checks.js, which compare the page's view with
 * the headers the fixture server received. A default pool browser and a stealth browser (through
 * a proxy-chain proxy on loopback), each plain, with the debugger attached for a screenshot, and
 * with a location.
 */
let site: Awaited<ReturnType<typeof startBotDetectionSite>>;
let proxy: ProxyServer;
const proxied: string[] = [];
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startBotDetectionSite();
  proxy = new ProxyServer({
    port: 0,
    host: '127.0.0.1',
    verbose: false,
    prepareRequestFunction: ({ request }) => {
      proxied.push(request.url ?? '');
      return {};
    },
  });
  await proxy.listen();
  tabhive = await startTestTabhive({
    stealthBrowsers: 1,
    env: { STEALTH_PROXY_URL: `http://127.0.0.1:${proxy.port}` },
  });
});
afterAll(async () => {
  await tabhive?.stop();
  await proxy?.close(true);
  await site?.close();
});

/** Scrapes the detector page for `run` and returns what it reported. */
async function detect(
  run: string,
  body: Record<string, unknown>,
  query: Record<string, string> = {},
): Promise<DetectorReport> {
  const { status, json } = await tabhive.post('/v2/scrape', {
    url: site.url(run, query),
    formats: ['markdown'],
    maxAge: 0,
    // The page reports after BotD and the checks have run, which may be after it settles: the
    // tab stays on it meanwhile (a location task's tab is closed after its capture).
    waitFor: 2_000,
    ...body,
  });
  expect(status, JSON.stringify(json)).toBe(200);
  return site.report(run);
}

/** The report's flagged checks with their details, so that a failure says what gave the browser away. */
const tells = (report: DetectorReport) =>
  Object.fromEntries(report.flagged.map((name) => [name, report.checks[name]?.detail]));

describe.each([
  { proxy: 'basic', label: 'a default launched browser' },
  { proxy: 'stealth', label: 'a stealth browser' },
] as const)('$label', ({ proxy: proxyMode }) => {
  it('is a person to BotD and to every consistency check', async () => {
    const run = `${proxyMode}-plain`;
    const report = await detect(run, { proxy: proxyMode });
    expect(report.botd).toEqual({ bot: false });
    expect(tells(report)).toEqual({});
    // The user agent on the wire is the page's, and no part of it says headless.
    expect(site.headersOf(run)?.['user-agent']).toBe(report.checks.userAgent?.detail);
    expect(String(site.headersOf(run)?.['sec-ch-ua'])).not.toMatch(/headless/i);
    expect(proxied.some((url) => url.includes(`run=${run}`))).toBe(proxyMode === 'stealth');
  });

  it('shows the page no DevTools artefact while a screenshot task has the debugger attached', async () => {
    const run = `${proxyMode}-screenshot`;
    // The probes repeat for 2.5 s; the task waits 3 s with the debugger attached before its capture.
    const report = await detect(
      run,
      { proxy: proxyMode, formats: ['screenshot'], waitFor: 3_000 },
      {
        probeMs: '2500',
      },
    );
    expect(report.botd).toEqual({ bot: false });
    expect(tells(report)).toEqual({});
    expect(report.checks.devtools?.detail).toMatchObject({ consoleSerialised: 0 });
  });

  it('agrees with itself in the language and clock of a requested location', async () => {
    const run = `${proxyMode}-location`;
    const report = await detect(
      run,
      { proxy: proxyMode, location: { country: 'DE' } },
      { expectTimeZone: 'Europe/Berlin', expectLanguage: 'de-DE' },
    );
    expect(report.botd).toEqual({ bot: false });
    expect(tells(report)).toEqual({});
    expect(report.checks.languageAndClock?.detail).toMatchObject({
      language: 'de-DE',
      timeZone: 'Europe/Berlin',
    });
    expect(String(site.headersOf(run)?.['accept-language'])).toMatch(/^de-DE,de/);
  });
});
