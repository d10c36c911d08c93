import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOtherTeam, startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * The wipe between teams on a pool browser removes Storage Buckets by name, not only their
 * contents (H1 of docs/security.md): team B's page lists none of the buckets team A's page made,
 * neither the page's own nor those of a frame of another site (a partitioned storage key).
 */

let site: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let teamB: string;

const port = () => (site.address() as AddressInfo).port;

/** The frame is on `localhost`, another site than the page's 127.0.0.1: its storage is partitioned. */
const PAGE = (mode: string) => `<!doctype html><html><head><title>Buckets</title></head><body>
<p id="top">TOP-KEYS=pending</p><p id="frame">FRAME-KEYS=pending</p>
<iframe src="http://localhost:${port()}/frame?mode=${mode}"></iframe>
<script>
addEventListener('message', (event) => { document.getElementById('frame').textContent = 'FRAME-KEYS=' + event.data; });
(async () => {
  if (${JSON.stringify(mode)} === 'make') await navigator.storageBuckets.open('bucket-of-team-a');
  document.getElementById('top').textContent = 'TOP-KEYS=' + ((await navigator.storageBuckets.keys()).join(',') || 'none');
})();
</script></body></html>`;

const FRAME = (mode: string) => `<!doctype html><html><body><script>
(async () => {
  if (${JSON.stringify(mode)} === 'make') await navigator.storageBuckets.open('frame-bucket-of-team-a');
  parent.postMessage((await navigator.storageBuckets.keys()).join(',') || 'none', '*');
})();
</script></body></html>`;

beforeAll(async () => {
  site = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    const mode = url.searchParams.get('mode') ?? 'list';
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(url.pathname === '/frame' ? FRAME(mode) : PAGE(mode));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  tabhive = await startTestTabhive({ browsers: 1, env: { HTTP_FAST_PATH: 'false' } });
  teamB = await addOtherTeam(tabhive);
});
afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

async function scrapeBuckets(apiKey: string, mode: string): Promise<string> {
  const response = await fetch(`${tabhive.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      url: `http://127.0.0.1:${port()}/page?mode=${mode}`,
      formats: ['markdown'],
      waitFor: 1_000,
      maxAge: 0,
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { markdown: string } }).data.markdown;
}

describe('the wipe between teams of a pool browser', () => {
  it('removes the Storage Buckets another team’s pages made, names and all', async () => {
    const made = await scrapeBuckets(tabhive.apiKey, 'make');
    expect(made).toContain('TOP-KEYS=bucket-of-team-a');
    expect(made).toContain('FRAME-KEYS=frame-bucket-of-team-a');

    const listed = await scrapeBuckets(teamB, 'list');
    expect(listed).toContain('TOP-KEYS=none');
    expect(listed).toContain('FRAME-KEYS=none');
  });
});
