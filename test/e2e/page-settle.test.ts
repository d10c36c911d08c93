import { describe, expect, it } from 'vitest';
import { RENDERED_MESSAGE } from '../helpers/fixture-site';
import { useSiteAndTabhive } from '../helpers/use-site-and-tabhive';

const ADMIN_API_KEY = 'admin-key-for-page-settle-tests';
// Every page in the browser: the HTTP fast path would take the static ones.
const env = useSiteAndTabhive({ env: { ADMIN_API_KEY, HTTP_FAST_PATH: 'false' } });

interface EngineStats {
  id: string;
  kind: string;
  tasks: number;
  engineCalls: number;
}

async function engineStats(): Promise<EngineStats> {
  const response = await fetch(`${env.tabhive.url}/admin/v1/browsers`, {
    headers: { authorization: `Bearer ${ADMIN_API_KEY}` },
  });
  const json = (await response.json()) as { success: boolean; data: EngineStats[] };
  expect(json.success).toBe(true);
  expect(json.data).toHaveLength(1);
  return json.data[0] as EngineStats;
}

const scrape = (body: Record<string, unknown>) =>
  env.tabhive.post('/v2/scrape', { formats: ['markdown'], maxAge: 0, ...body });

describe('the browser engine waits until the page has rendered', () => {
  it('returns text a timer writes 400 ms after load, with nothing on the network to wait for', async () => {
    const { status, json } = await scrape({ url: env.site.url('/late-timer.html') });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('The swarm settled on the north hive at dusk.');
    expect(json.data.markdown).not.toContain('Loading…');
  });

  it('lets the page answer every scroll action: 45 scrolls show all 40 items of a scroll-driven list', async () => {
    const actions = Array.from({ length: 45 }, () => ({ type: 'scroll', direction: 'down' }));
    const { status, json } = await scrape({
      url: env.site.url('/scroll-feed.html'),
      actions,
      timeout: 60_000,
    });
    expect(status).toBe(200);
    const items = (json.data.markdown as string).match(/Feed item \d+/g) ?? [];
    expect(items).toHaveLength(40);
    expect(json.data.markdown).toContain('Feed item 40');
  });

  it('captures a page that never stops changing at the settle cap instead of holding it to the timeout', async () => {
    // Held until the timeout, this would be a 408; the settle cap (3 s after load) comes well before.
    const { status, json } = await scrape({ url: env.site.url('/ticking-clock.html'), timeout: 15_000 });
    expect(status).toBe(200);
    expect(json.data.markdown).toMatch(/Time in the hive: \d+ ticks\./);
  });

  it('captures a plain page with at most 4 extension API calls', async () => {
    // The first task opens the tab's window and gives it its address rules: the pool's, not a page's.
    await scrape({ url: env.site.url('/js-rendered.html') });
    const before = await engineStats();
    const pages = [
      '/js-rendered.html',
      '/animation-frame.html',
      '/',
      '/docs/getting-started.html',
      '/product.html',
    ];
    for (const page of pages) {
      const { status, json } = await scrape({ url: env.site.url(page) });
      expect(status).toBe(200);
      if (page === '/js-rendered.html') expect(json.data.markdown).toContain(RENDERED_MESSAGE);
    }
    const after = await engineStats();
    expect(after.kind).toBe('launched');
    expect(after.tasks - before.tasks).toBe(pages.length);
    const callsPerPage = (after.engineCalls - before.engineCalls) / pages.length;
    expect(callsPerPage).toBeGreaterThan(0);
    expect(callsPerPage).toBeLessThanOrEqual(4);
  });
});
