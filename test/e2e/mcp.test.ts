import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExtractSite } from '../integration/extract/extract-site';
import { startCrawlSite } from '../helpers/crawl-site';
import { addOtherTeam, startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * Tabhive's own MCP server at `/mcp`, driven by the MCP SDK's client over Streamable HTTP against a
 * whole Tabhive with a real browser: the tools Firecrawl's MCP server names, their results, the API
 * key, and one team's jobs hidden from another.
 */

type Tabhive = Awaited<ReturnType<typeof startTestTabhive>>;

let site: Awaited<ReturnType<typeof startCrawlSite>>;
let shop: Awaited<ReturnType<typeof startExtractSite>>;
let tabhive: Tabhive;
let client: Client;

async function connect(apiKey: string): Promise<Client> {
  const mcp = new Client({ name: 'tabhive-e2e', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${tabhive.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    }),
  );
  return mcp;
}

/** A tool's result: its text parsed as JSON, and whether it is an error. */
async function call(mcp: Client, name: string, args: Record<string, unknown>) {
  const result = await mcp.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text: string }>;
  expect(content[0]?.type).toBe('text');
  const text = content[0]?.text ?? '';
  let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the tool's JSON, asserted on below
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { isError: result.isError === true, text, json };
}

beforeAll(async () => {
  site = await startCrawlSite();
  shop = await startExtractSite();
  tabhive = await startTestTabhive({ browsers: 1 });
  client = await connect(tabhive.apiKey);
}, 60_000);
afterAll(async () => {
  await client?.close();
  await tabhive?.stop();
  await shop?.close();
  await site?.close();
});

describe('MCP at /mcp', () => {
  it("lists the tools by Firecrawl's MCP names, with their arguments", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'firecrawl_batch_scrape',
      'firecrawl_check_batch_status',
      'firecrawl_check_crawl_status',
      'firecrawl_crawl',
      'firecrawl_extract',
      'firecrawl_map',
      'firecrawl_scrape',
      'firecrawl_search',
    ]);
    const scrape = tools.find((tool) => tool.name === 'firecrawl_scrape');
    expect(scrape?.inputSchema.required).toEqual(['url']);
    expect(Object.keys(scrape?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['url', 'formats', 'onlyMainContent', 'waitFor', 'jsonOptions', 'maxAge']),
    );
  });

  it('firecrawl_scrape answers the page as Markdown with its metadata', async () => {
    const { isError, json } = await call(client, 'firecrawl_scrape', {
      url: site.url('/docs/page-5.html'),
      formats: ['markdown', 'links'],
      // The page's links are in its <nav>, outside the main content.
      onlyMainContent: false,
    });
    expect(isError).toBe(false);
    expect(json.markdown).toContain('# Doc 5');
    expect(json.markdown).toContain('Content of Doc 5.');
    expect(json.links).toContain(site.url('/docs/page-6.html'));
    expect(json.metadata).toMatchObject({
      title: 'Doc 5',
      statusCode: 200,
      sourceURL: site.url('/docs/page-5.html'),
    });
  });

  it('firecrawl_scrape with formats ["json"] and jsonOptions fills the schema from the page', async () => {
    const { isError, json } = await call(client, 'firecrawl_scrape', {
      url: shop.url('/products/lamp.html'),
      formats: ['json'],
      jsonOptions: {
        schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
      },
    });
    expect(isError).toBe(false);
    expect(json.json).toEqual({ name: 'Desk Lamp', price: 39.9 });
  });

  it("firecrawl_map lists the site's URLs", async () => {
    const { isError, json } = await call(client, 'firecrawl_map', { url: site.url('/'), limit: 100 });
    expect(isError).toBe(false);
    const urls = (json.links as Array<{ url: string }>).map((link) => link.url);
    expect(urls).toEqual(
      expect.arrayContaining([site.url('/docs/'), site.url('/about.html'), site.url('/from-sitemap.html')]),
    );
  });

  it('firecrawl_crawl runs a crawl to its end; firecrawl_check_crawl_status reads it again', async () => {
    const crawled = await call(client, 'firecrawl_crawl', {
      url: site.url('/docs/'),
      limit: 4,
      scrapeOptions: { formats: ['markdown'] },
    });
    expect(crawled.isError).toBe(false);
    expect(crawled.json).toMatchObject({ status: 'completed', completed: 4, total: 4, next: null });
    expect(crawled.json.data).toHaveLength(4);
    for (const page of crawled.json.data as Array<{ markdown: string; metadata: { sourceURL: string } }>) {
      expect(page.metadata.sourceURL.startsWith(site.url('/docs/'))).toBe(true);
      expect(page.markdown).toMatch(/Content of Doc/);
    }
    const status = await call(client, 'firecrawl_check_crawl_status', { id: crawled.json.id });
    expect(status.isError).toBe(false);
    expect(status.json).toMatchObject({ id: crawled.json.id, status: 'completed', completed: 4 });
    expect(status.json.data).toHaveLength(4);
    // The crawl is the team's: the HTTP API shows the same job.
    const viaApi = await tabhive.get(`/v2/crawl/${crawled.json.id}`);
    expect(viaApi.json).toMatchObject({ status: 'completed', completed: 4 });
  });

  it('firecrawl_batch_scrape starts a batch; firecrawl_check_batch_status answers its pages', async () => {
    const urls = [site.url('/about.html'), site.url('/docs/page-1.html')];
    const started = await call(client, 'firecrawl_batch_scrape', {
      urls,
      options: { formats: ['markdown'], onlyMainContent: true },
    });
    expect(started.isError).toBe(false);
    expect(started.json).toMatchObject({ success: true, id: expect.any(String) });
    let status = await call(client, 'firecrawl_check_batch_status', { id: started.json.id });
    await waitUntil(
      async () => {
        status = await call(client, 'firecrawl_check_batch_status', { id: started.json.id });
        return status.json.status === 'completed';
      },
      60_000,
      'the batch scrape',
    );
    expect(status.json).toMatchObject({ status: 'completed', completed: 2, total: 2 });
    const pages = status.json.data as Array<{ markdown: string; metadata: { sourceURL: string } }>;
    expect(pages.map((page) => page.metadata.sourceURL).sort()).toEqual([...urls].sort());
    expect(pages.find((page) => page.metadata.sourceURL === urls[1])?.markdown).toContain(
      'Content of Doc 1.',
    );
  });

  it('firecrawl_search finds pages this team scraped (the local index)', async () => {
    expect((await call(client, 'firecrawl_scrape', { url: site.url('/docs/page-5.html') })).isError).toBe(
      false,
    );
    const { isError, json } = await call(client, 'firecrawl_search', { query: 'Doc 5', limit: 5 });
    expect(isError).toBe(false);
    expect(json.success).toBe(true);
    const urls = (json.data.web as Array<{ url: string }>).map((result) => result.url);
    expect(urls).toContain(site.url('/docs/page-5.html'));
  });

  it('firecrawl_search leaves out the hosted tool catalogue an agent configured for Firecrawl asks for', async () => {
    expect((await call(client, 'firecrawl_scrape', { url: site.url('/docs/page-5.html') })).isError).toBe(
      false,
    );
    const { isError, json } = await call(client, 'firecrawl_search', {
      query: 'Doc 5',
      sources: ['web', 'alexandria'],
      toolDetail: 'compact',
      domainTools: true,
    });
    expect(isError).toBe(false);
    expect(json.warning).toContain('no tool catalogue');
    expect((json.data.web as Array<{ url: string }>).map((result) => result.url)).toContain(
      site.url('/docs/page-5.html'),
    );
  });

  it('firecrawl_extract waits for the extract job and answers its data', async () => {
    const { isError, json } = await call(client, 'firecrawl_extract', {
      urls: [shop.url('/products/lamp.html'), shop.url('/products/chair.html')],
      schema: {
        type: 'object',
        properties: {
          brand: { type: 'string' },
          products: {
            type: 'array',
            items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
          },
        },
        required: ['brand', 'products'],
      },
    });
    expect(isError).toBe(false);
    expect(json).toMatchObject({
      success: true,
      status: 'completed',
      data: {
        brand: 'Lumen',
        products: [
          { name: 'Desk Lamp', price: 39.9 },
          { name: 'Office Chair', price: 129 },
        ],
      },
    });
    expect(json.creditsUsed).toBeGreaterThan(0);
  });

  it("answers the API's validation error as a tool error", async () => {
    const { isError, text, json } = await call(client, 'firecrawl_scrape', {
      url: site.url('/'),
      formats: ['markdown'],
      waitFor: -5,
    });
    expect(isError).toBe(true);
    // The reason in words, without the issues' JSON (the structured content still has them).
    expect(text).toBe('Bad Request: waitFor: must be at least 0');
    expect(json).toBeUndefined();
    const badUrl = await call(client, 'firecrawl_scrape', { url: 'not a url' });
    expect(badUrl).toMatchObject({ isError: true, text: 'Bad Request: url: must be a URL' });
    const badBatch = await call(client, 'firecrawl_batch_scrape', { urls: [site.url('/'), 'ftp://x.test/'] });
    expect(badBatch).toMatchObject({
      isError: true,
      text: 'Bad Request: urls[1]: must be an http:// or https:// URL',
    });
    const crawlOfNothing = await call(client, 'firecrawl_check_crawl_status', { id: 'not-a-job' });
    expect(crawlOfNothing).toMatchObject({ isError: true, text: 'Job not found' });
  });
});

describe('MCP and the API key', () => {
  it("refuses a missing or unknown key with Firecrawl's 401", async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${tabhive.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(initialize),
      });
    const unknown = await post({ authorization: 'Bearer fc-00000000000000000000000000000000' });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ success: false, error: 'Unauthorized: Invalid token' });
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ success: false, error: 'Unauthorized' });
    await expect(connect('fc-00000000000000000000000000000000')).rejects.toThrow(/401|Unauthorized/);
  });

  it('answers GET and DELETE 405: the server keeps no sessions', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${tabhive.url}/mcp`, {
        method,
        headers: { authorization: `Bearer ${tabhive.apiKey}`, accept: 'text/event-stream' },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toContain('POST');
    }
  });

  it("does not show one team's crawl to another team's key", async () => {
    const otherKey = await addOtherTeam(tabhive);
    const other = await connect(otherKey);
    try {
      const crawled = await call(client, 'firecrawl_crawl', { url: site.url('/about.html'), limit: 1 });
      expect(crawled.json.status).toBe('completed');
      const seen = await call(other, 'firecrawl_check_crawl_status', { id: crawled.json.id });
      expect(seen).toMatchObject({ isError: true, text: 'Job not found' });
      const batchSeen = await call(other, 'firecrawl_check_batch_status', { id: crawled.json.id });
      expect(batchSeen).toMatchObject({ isError: true, text: 'Job not found' });
      // The other team's own work runs under its own key, and is booked to it once.
      const { stores } = tabhive.tabhive;
      const before = (await stores.teams.get('team-b'))?.creditsUsed ?? 0;
      const scraped = await call(other, 'firecrawl_scrape', { url: site.url('/about.html'), maxAge: 0 });
      expect(scraped.json.markdown).toContain('Content of /about.html.');
      expect(scraped.json.metadata.creditsUsed).toBe(1);
      expect((await stores.teams.get('team-b'))?.creditsUsed).toBe(before + 1);
    } finally {
      await other.close();
    }
  });
});

describe('MCP and the credit allowance', () => {
  it("refuses work beyond the team's allowance with the API's 402 message", async () => {
    const { stores } = tabhive.tabhive;
    await stores.teams.create({ id: 'spent', creditAllowance: 0 });
    const key = (await stores.apiKeys.create({ teamId: 'spent', label: 'e2e' })).apiKey;
    const spent = await connect(key);
    try {
      for (const [tool, args] of [
        ['firecrawl_scrape', { url: site.url('/about.html') }],
        ['firecrawl_crawl', { url: site.url('/'), limit: 2 }],
        ['firecrawl_batch_scrape', { urls: [site.url('/')] }],
      ] as const) {
        const answer = await call(spent, tool, args);
        expect(answer.isError, tool).toBe(true);
        expect(answer.text, tool).toMatch(/^Insufficient credits to perform this request/);
      }
      expect((await stores.teams.get('spent'))?.creditsUsed).toBe(0);
    } finally {
      await spent.close();
    }
  });
});
