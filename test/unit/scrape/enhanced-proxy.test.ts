import { describe, expect, it } from 'vitest';
import type { BrowserClass, PageCapture } from '../../../shared/protocol/messages';
import { enhancedClass, runWithProxy } from '../../../server/scrape/capture/run-with-proxy';

const page = (statusCode: number): PageCapture => ({
  url: 'https://a.test/',
  statusCode,
  rawHtml: '<p>hi</p>',
  renderedHtml: '<p>hi</p>',
});
const spec = { url: 'https://a.test/', waitForMs: 0 };

function setup({ stealthBrowsers, basic = page(200) }: { stealthBrowsers: number; basic?: PageCapture }) {
  const ran: Array<{ browserClass: BrowserClass | undefined; teamId: string | undefined }> = [];
  const deps = {
    runTask: async (_spec: unknown, options: { browserClass?: BrowserClass; teamId?: string }) => {
      ran.push({ browserClass: options.browserClass, teamId: options.teamId });
      return options.browserClass === 'stealth' ? page(200) : basic;
    },
    connectedBrowsers: (browserClass: BrowserClass) => (browserClass === 'stealth' ? stealthBrowsers : 2),
  };
  return { deps, ran };
}

describe('proxy "enhanced"', () => {
  it('runs on a stealth browser when one is connected', async () => {
    const { deps, ran } = setup({ stealthBrowsers: 1 });
    const result = await runWithProxy(deps, spec, { timeoutMs: 1_000, proxy: 'enhanced', teamId: 'team-a' });
    expect(result.browserClass).toBe('stealth');
    // The team goes along, so a donated browser of the team that covers the URL may still take it.
    expect(ran).toEqual([{ browserClass: 'stealth', teamId: 'team-a' }]);
  });

  it('runs on a basic browser when no stealth browser is connected, rather than fail as stealth does', async () => {
    const { deps, ran } = setup({ stealthBrowsers: 0, basic: page(403) });
    const result = await runWithProxy(deps, spec, { timeoutMs: 1_000, proxy: 'enhanced' });
    expect([result.browserClass, result.statusCode]).toEqual(['basic', 403]);
    expect(ran.map((run) => run.browserClass)).toEqual(['basic']);
    await expect(runWithProxy(deps, spec, { timeoutMs: 1_000, proxy: 'stealth' })).rejects.toThrow(
      'No stealth browser is connected',
    );
  });

  it('names the strongest class connected', () => {
    expect([enhancedClass(() => 0), enhancedClass((c) => (c === 'stealth' ? 3 : 0))]).toEqual([
      'basic',
      'stealth',
    ]);
  });
});
