import { FirecrawlAppV1 } from 'firecrawl';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../../helpers/fake-llm-server';
import { startTestTabhive, waitUntil } from '../../helpers/start-test-tabhive';

/**
 * `/v1/llmstxt` through the whole server (embedded store, no browser: the site's pages are plain
 * HTML over the HTTP fast path) with the v1 client, with and without a model.
 */

const page = (title: string, description: string | undefined, body: string) => `<!doctype html>
<html><head><title>${title}</title>${description === undefined ? '' : `<meta name="description" content="${description}">`}</head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;

const PAGES: Record<string, string> = {
  '/': page(
    'Acme Tools',
    'Hand tools made in Sheffield since 1921.',
    '<p>Welcome to Acme.</p><a href="/hammers.html">Hammers</a>',
  ),
  '/hammers.html': page(
    'Hammers [forged]',
    'Claw, ball-peen and sledge hammers, forged from one piece of steel.',
    '<p>Our hammers are forged.</p>',
  ),
  '/saws.html': page(
    'Saws',
    undefined,
    '<p>Every saw is sharpened by hand before it leaves the workshop. Blades are replaceable.</p>',
  ),
  '/gone.html': '',
};

let site: Server;
let siteUrl: string;
let hits: string[];

function startSite() {
  hits = [];
  site = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.push(path);
    if (path === '/sitemap.xml') {
      const urls = ['/', '/hammers.html', '/saws.html', '/gone.html'];
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
          .map((url) => `<url><loc>${siteUrl}${url}</loc></url>`)
          .join('')}</urlset>`,
      );
      return;
    }
    const html = PAGES[path];
    if (html === undefined || html === '') {
      response
        .writeHead(404, { 'content-type': 'text/html' })
        .end(page('Not found', undefined, '<p>No.</p>'));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  return new Promise<void>((resolve) =>
    site.listen(0, '127.0.0.1', () => {
      siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
async function call(base: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

describe('llms.txt without a model', () => {
  let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
  beforeAll(async () => {
    await startSite();
    tabhive = await startTestTabhive({ browsers: 0 });
  });
  afterAll(async () => {
    await tabhive?.stop();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('lists the site’s pages with their own descriptions, and writes llms-full.txt when asked', async () => {
    const app = new FirecrawlAppV1({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
    const result = await app.generateLLMsText(siteUrl, { maxUrls: 10, showFullText: true });
    if (!result.success || !('data' in result)) throw new Error(JSON.stringify(result));
    expect(result.status).toBe('completed');
    const lines = result.data.llmstxt.split('\n');
    expect(lines[0]).toBe('# Acme Tools');
    expect(lines).toContain('> Hand tools made in Sheffield since 1921.');
    expect(lines).toContain(`- [Acme Tools](${siteUrl}/): Hand tools made in Sheffield since 1921.`);
    // Brackets in a title would break the link; a page without a description gets its first sentence.
    expect(lines).toContain(
      `- [Hammers forged](${siteUrl}/hammers.html): Claw, ball-peen and sledge hammers, forged from one piece of steel.`,
    );
    expect(lines).toContain(
      `- [Saws](${siteUrl}/saws.html): Every saw is sharpened by hand before it leaves the workshop.`,
    );
    // The 404 page is left out, and the status says so.
    expect(result.data.llmstxt).not.toContain('gone.html');
    const status = await call(tabhive.url, tabhive.apiKey, 'GET', `/v1/llmstxt/${await lastJobId(tabhive)}`);
    expect(status.json.warnings.join(' ')).toContain(`${siteUrl}/gone.html (HTTP 404)`);
    expect(status.json.creditsUsed).toBe(1 + 4);

    const full = result.data.llmsfulltxt ?? '';
    expect(full.startsWith('# Acme Tools\n')).toBe(true);
    expect(full).toContain(`## Saws\n\nSource: ${siteUrl}/saws.html\n\n# Saws`);
    expect(full).toContain('Blades are replaceable.');
  });

  it('reads at most maxUrls pages, leaves llms-full.txt out unless asked, and refuses bad input', async () => {
    const started = await call(tabhive.url, tabhive.apiKey, 'POST', '/v1/llmstxt', {
      url: siteUrl,
      maxUrls: 2,
    });
    expect(started.status).toBe(200);
    let status: { json: { status: string; data?: { llmstxt: string; llmsfulltxt?: string } } } | undefined;
    await waitUntil(
      async () => {
        const read = await call(tabhive.url, tabhive.apiKey, 'GET', `/v1/llmstxt/${started.json.id}`);
        status = read;
        return read.json.status !== 'processing';
      },
      30_000,
      'the llms.txt job',
    );
    expect(status!.json.status).toBe('completed');
    // Two pages read: each is listed, or named as left out (the map may put the 404 page second).
    const listed = status!.json.data!.llmstxt.match(/^- \[/gm)?.length ?? 0;
    const leftOut =
      (status!.json as { warnings?: string[] }).warnings?.join(' ').match(/\(HTTP 404\)/g)?.length ?? 0;
    expect(listed + leftOut).toBe(2);
    expect(listed).toBeGreaterThanOrEqual(1);
    expect(status!.json.data!.llmsfulltxt).toBeUndefined();

    // Not a crawl: the crawl routes do not know it (reading it there must not "finish" it).
    expect((await call(tabhive.url, tabhive.apiKey, 'GET', `/v2/crawl/${started.json.id}`)).status).toBe(404);
    expect((await call(tabhive.url, tabhive.apiKey, 'DELETE', `/v2/crawl/${started.json.id}`)).status).toBe(
      404,
    );
    // Another team's key, or an unknown id, is a 404.
    expect(
      (await call(tabhive.url, tabhive.apiKey, 'GET', `/v1/llmstxt/${crypto.randomUUID()}`)).status,
    ).toBe(404);

    for (const body of [
      {},
      { url: siteUrl, maxUrls: 0 },
      { url: siteUrl, maxUrls: 101 },
      { url: siteUrl, showFullText: 'yes' },
      { url: 'ftp://example.com' },
      { url: siteUrl, surprise: true },
    ]) {
      const refused = await call(tabhive.url, tabhive.apiKey, 'POST', '/v1/llmstxt', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.json.success).toBe(false);
    }
    // The cloud metadata address is refused before any job exists.
    const blocked = await call(tabhive.url, tabhive.apiKey, 'POST', '/v1/llmstxt', {
      url: 'http://169.254.169.254/',
    });
    expect(blocked.status).toBe(403);
  });

  it('fails a job whose site has no readable page, naming why', async () => {
    const started = await call(tabhive.url, tabhive.apiKey, 'POST', '/v1/llmstxt', {
      url: `${siteUrl}/gone.html`,
      maxUrls: 1,
    });
    let status: { json: { status: string; error?: string } } | undefined;
    await waitUntil(
      async () => {
        const read = await call(tabhive.url, tabhive.apiKey, 'GET', `/v1/llmstxt/${started.json.id}`);
        status = read;
        return read.json.status !== 'processing';
      },
      30_000,
      'the llms.txt job',
    );
    expect(status?.json.status).toBe('failed');
    expect(status?.json.error).toContain('No page of the site could be read');
  });
});

describe('llms.txt with a model', () => {
  let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
  let llm: Awaited<ReturnType<typeof startFakeLlmServer>>;
  beforeAll(async () => {
    await startSite();
    llm = await startFakeLlmServer({ fallback: 'A page of the Acme tool shop.' });
    tabhive = await startTestTabhive({ browsers: 0, env: { LLM_BASE_URL: llm.baseUrl } });
  });
  afterAll(async () => {
    await tabhive?.stop();
    await llm?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('describes each page in the model’s one line', async () => {
    const app = new FirecrawlAppV1({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
    const result = await app.generateLLMsText(siteUrl, { maxUrls: 3 });
    if (!result.success || !('data' in result)) throw new Error(JSON.stringify(result));
    expect(result.data.llmstxt).toContain(`- [Saws](${siteUrl}/saws.html): A page of the Acme tool shop.`);
    expect(llm.requests).toHaveLength(3);
    expect(
      llm.requests.some((request) => request.body.messages[1]?.content.includes('Blades are replaceable.')),
    ).toBe(true);
  });
});

/** The newest llms.txt job of the default team, read through the status route of the last POST. */
async function lastJobId(tabhive: { url: string; apiKey: string }): Promise<string> {
  const started = await call(tabhive.url, tabhive.apiKey, 'POST', '/v1/llmstxt', {
    url: siteUrl,
    maxUrls: 10,
  });
  await waitUntil(
    async () =>
      (await call(tabhive.url, tabhive.apiKey, 'GET', `/v1/llmstxt/${started.json.id}`)).json.status !==
      'processing',
    30_000,
    'the llms.txt job',
  );
  return started.json.id as string;
}
