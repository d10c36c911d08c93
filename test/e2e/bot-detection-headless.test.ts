import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBotDetectionSite } from '../helpers/bot-detection-site';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * BROWSER_DISPLAY=headless (and a host without Xvfb): the launched browser runs new headless with
 * a person's user agent for its Chromium version. BotD calls it human; the consistency checks
 * still find the two tells docs/browser-control.md names for this mode, and nothing else.
 */
let site: Awaited<ReturnType<typeof startBotDetectionSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startBotDetectionSite();
  tabhive = await startTestTabhive({ env: { BROWSER_DISPLAY: 'headless' } });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

describe('a launched browser that runs headless', () => {
  it('says Chrome, not HeadlessChrome, and gives itself away only by its empty high-entropy hints and WebGL', async () => {
    const { status } = await tabhive.post('/v2/scrape', {
      url: site.url('headless'),
      maxAge: 0,
      waitFor: 2_000,
    });
    expect(status).toBe(200);
    const report = await site.report('headless');
    expect(report.botd).toEqual({ bot: false });
    expect(site.headersOf('headless')?.['user-agent']).toMatch(/ Chrome\/\d+\.0\.0\.0 /);
    expect(report.flagged.sort()).toEqual(['clientHints', 'webGl']);
    expect(report.checks.clientHints?.detail).toMatchObject({ high: { fullVersionList: [] } });
    expect(JSON.stringify(report.checks.webGl?.detail)).toMatch(/SwiftShader/);
  });
});
