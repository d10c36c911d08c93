import { Configuration, PlaywrightCrawler } from 'crawlee';
import { chromium } from 'playwright-core';
import { Server as ProxyServer } from 'proxy-chain';
import { startBotDetectionSite, type DetectorReport } from '../../test/helpers/bot-detection-site';
import { chromiumArgs } from './peers/peer-result';
import type { BenchRow } from './results-table';
import { startTabhiveProcess } from './tabhive-process';

/** One engine's verdict on the local detector page. */
export interface DetectionVerdict {
  engine: 'tabhive-default' | 'tabhive-stealth' | 'playwright-direct' | 'crawlee-playwright';
  /** BotD's answer: 'human', a bot kind ('headless_chrome', …), or 'error'. */
  botd: string;
  /** The consistency checks (test/fixtures/bot-detection/checks.js) that flagged the browser. */
  flagged: string[];
}

const LABELS: Record<DetectionVerdict['engine'], string> = {
  'tabhive-default': 'Tabhive, launched browser',
  'tabhive-stealth': 'Tabhive, stealth browser',
  'playwright-direct': 'Playwright direct',
  'crawlee-playwright': 'Crawlee PlaywrightCrawler',
};

const verdictOf = (engine: DetectionVerdict['engine'], report: DetectorReport): DetectionVerdict => ({
  engine,
  botd: 'error' in report.botd ? 'error' : report.botd.bot ? (report.botd.botKind ?? 'bot') : 'human',
  flagged: report.flagged,
});

/**
 * The "detection" rows of the perf bench: the same local detector page (BotD 2.0 and the
 * consistency checks the bot-detection e2e tests use) opened by Tabhive's default and stealth
 * browsers (the stealth one through a proxy-chain proxy on loopback), by Playwright driving the
 * same Chromium, and by Crawlee's PlaywrightCrawler with its defaults. Each row's value is the
 * number of tells: 1 when BotD says bot, plus each flagged check; 0 is a person's browser.
 */
export async function measureDetectionRows({ chromePath }: { chromePath: string }): Promise<{
  rows: BenchRow[];
  verdicts: DetectionVerdict[];
}> {
  const site = await startBotDetectionSite();
  const verdicts: DetectionVerdict[] = [];
  try {
    verdicts.push(...(await tabhiveVerdicts(site, chromePath)));
    verdicts.push(await playwrightVerdict(site, chromePath));
    verdicts.push(await crawleeVerdict(site, chromePath));
  } finally {
    await site.close();
  }
  const rows = verdicts.map((verdict): BenchRow => ({
    key: `detection-${verdict.engine}`,
    label: `detection: ${LABELS[verdict.engine]} (tells on the local detector page)`,
    value: (verdict.botd === 'human' ? 0 : 1) + verdict.flagged.length,
    unit: 'tells',
    better: 'lower',
    note: `BotD ${verdict.botd}; ${
      verdict.flagged.length === 0 ? 'no check flagged' : `flagged: ${verdict.flagged.join(', ')}`
    }`,
  }));
  return { rows, verdicts };
}

type Site = Awaited<ReturnType<typeof startBotDetectionSite>>;

async function tabhiveVerdicts(site: Site, chromePath: string): Promise<DetectionVerdict[]> {
  const proxy = new ProxyServer({ port: 0, host: '127.0.0.1', verbose: false });
  await proxy.listen();
  const tabhive = await startTabhiveProcess(
    {
      CHROME_PATH: chromePath,
      BROWSERS: '1',
      STEALTH_BROWSERS: '1',
      STEALTH_PROXY_URL: `http://127.0.0.1:${proxy.port}`,
    },
    { readyBrowsers: 2 },
  );
  try {
    const verdicts: DetectionVerdict[] = [];
    for (const [engine, mode] of [
      ['tabhive-default', 'basic'],
      ['tabhive-stealth', 'stealth'],
    ] as const) {
      const run = `bench-${engine}`;
      await tabhive.api('POST', '/v2/scrape', {
        url: site.url(run),
        proxy: mode,
        maxAge: 0,
        formats: ['markdown'],
        // The page reports once BotD and the checks have run, which may be after it settles.
        waitFor: 2_000,
      });
      verdicts.push(verdictOf(engine, await site.report(run)));
    }
    return verdicts;
  } finally {
    await tabhive.stop();
    await proxy.close(true);
  }
}

async function playwrightVerdict(site: Site, chromePath: string): Promise<DetectionVerdict> {
  const browser = await chromium.launch({ executablePath: chromePath, headless: true, args: chromiumArgs() });
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    const run = 'bench-playwright-direct';
    await page.goto(site.url(run), { waitUntil: 'load' });
    return verdictOf('playwright-direct', await site.report(run));
  } finally {
    await browser.close();
  }
}

async function crawleeVerdict(site: Site, chromePath: string): Promise<DetectionVerdict> {
  const run = 'bench-crawlee-playwright';
  let report: DetectorReport | undefined;
  const crawler = new PlaywrightCrawler(
    {
      launchContext: {
        launcher: chromium,
        launchOptions: { executablePath: chromePath, headless: true, args: chromiumArgs() },
      },
      maxRequestRetries: 0,
      async requestHandler() {
        report = await site.report(run);
      },
    },
    new Configuration({ persistStorage: false, purgeOnStart: true, logLevel: 1 }),
  );
  await crawler.run([site.url(run)]);
  if (report === undefined) throw new Error('Crawlee never reached the detector page');
  return verdictOf('crawlee-playwright', report);
}
