import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlSite } from '../helpers/crawl-site';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * Firecrawl's own MCP server (the `firecrawl-mcp` npm package, 3.26.0) run over stdio with its
 * self-hosting setting (FIRECRAWL_API_URL) pointed at a whole Tabhive, driven by the MCP SDK's
 * client as an agent would: every tool that maps onto a route Tabhive serves is called and its
 * result checked; the tools of Firecrawl's hosted-only services answer a clear error.
 */

const FIRECRAWL_MCP = fileURLToPath(
  new URL('../../node_modules/firecrawl-mcp/dist/index.js', import.meta.url),
);

let site: Awaited<ReturnType<typeof startCrawlSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let client: Client;
let workDir: string;

/** A tool's result: its text, parsed as JSON when it is JSON, and whether it is an error. */
async function call(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  const content = result.content as Array<{ type: string; text: string }>;
  const text = content.map((part) => part.text).join('\n');
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
  tabhive = await startTestTabhive({ browsers: 1 });
  workDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-firecrawl-mcp-'));
  client = new Client({ name: 'tabhive-compat', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [FIRECRAWL_MCP],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? workDir,
        FIRECRAWL_API_URL: tabhive.url,
        FIRECRAWL_API_KEY: tabhive.apiKey,
      },
      cwd: workDir,
      // Its log lines go to stderr; they are not the test's business.
      stderr: 'ignore',
    }),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  await tabhive?.stop();
  await site?.close();
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
});

describe('firecrawl-mcp pointed at Tabhive', () => {
  it('offers its tools', async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'firecrawl_scrape',
        'firecrawl_map',
        'firecrawl_search',
        'firecrawl_crawl',
        'firecrawl_check_crawl_status',
        'firecrawl_parse',
        'firecrawl_credit_usage',
      ]),
    );
  });

  it('firecrawl_scrape answers the page as Markdown (POST /v2/scrape)', async () => {
    const { isError, json } = await call('firecrawl_scrape', {
      url: site.url('/docs/page-3.html'),
      formats: ['markdown', 'links'],
      onlyMainContent: false,
      maxAge: 0,
    });
    expect(isError).toBe(false);
    expect(json.markdown).toContain('# Doc 3');
    expect(json.markdown).toContain('Content of Doc 3.');
    expect(json.links).toContain(site.url('/docs/page-4.html'));
    expect(json.metadata).toMatchObject({ title: 'Doc 3', statusCode: 200 });
  });

  it('firecrawl_scrape with a json format and its schema fills the schema', async () => {
    const { isError, json } = await call('firecrawl_scrape', {
      url: site.url('/docs/page-3.html'),
      formats: ['json'],
      jsonOptions: { schema: { type: 'object', properties: { title: { type: 'string' } } } },
    });
    expect(isError).toBe(false);
    expect(json.json).toEqual({ title: 'Doc 3' });
  });

  it("firecrawl_map lists the site's URLs (POST /v2/map)", async () => {
    const { isError, json } = await call('firecrawl_map', { url: site.url('/'), limit: 100 });
    expect(isError).toBe(false);
    const urls = (json.links as Array<{ url: string }>).map((link) => link.url);
    expect(urls).toEqual(expect.arrayContaining([site.url('/docs/'), site.url('/from-sitemap.html')]));
  });

  it('firecrawl_crawl waits for the crawl and answers its pages; firecrawl_check_crawl_status reads it', async () => {
    const crawled = await call('firecrawl_crawl', { url: site.url('/docs/'), limit: 3 });
    expect(crawled.isError).toBe(false);
    expect(crawled.json).toMatchObject({ status: 'completed', completed: 3, total: 3 });
    expect(crawled.json.data).toHaveLength(3);
    for (const page of crawled.json.data as Array<{ markdown: string }>) expect(page.markdown).toMatch(/Doc/);
    const status = await call('firecrawl_check_crawl_status', { id: crawled.json.id });
    expect(status.isError).toBe(false);
    expect(status.json).toMatchObject({ id: crawled.json.id, status: 'completed', completed: 3 });
    expect(status.json.data).toHaveLength(3);
  });

  it('firecrawl_parse sends a local file to POST /v2/parse and answers its Markdown', async () => {
    const file = path.join(workDir, 'notes.html');
    await writeFile(
      file,
      '<html><head><title>Notes</title></head><body><h1>Hive notes</h1><p>Bees dance.</p></body></html>',
    );
    const { isError, json } = await call('firecrawl_parse', { filePath: file, formats: ['markdown'] });
    expect(isError).toBe(false);
    expect(json.success).toBe(true);
    expect(json.data.markdown).toContain('# Hive notes');
    expect(json.data.markdown).toContain('Bees dance.');
  });

  it('firecrawl_credit_usage reads GET /v2/team/credit-usage', async () => {
    const { isError, json } = await call('firecrawl_credit_usage', {});
    expect(isError).toBe(false);
    const api = await tabhive.get('/v2/team/credit-usage');
    expect(json).toEqual({
      remainingCredits: api.json.data.remainingCredits,
      // The default team has no allowance: planCredits is null, which the tool leaves out.
      billingPeriodStart: api.json.data.billingPeriodStart,
      billingPeriodEnd: api.json.data.billingPeriodEnd,
    });
    expect(typeof json.remainingCredits).toBe('number');
  });

  it('firecrawl_search searches the pages Tabhive scraped (POST /v2/search), its catalogue fields accepted', async () => {
    // firecrawl-mcp 3.26 adds `toolDetail: "compact"` to every search, and the `alexandria`
    // source unless `sources` is given: /v2/search accepts both and says what it left out.
    const web = await call('firecrawl_search', { query: 'Doc 3', sources: ['web'] });
    expect(web.isError).toBe(false);
    expect(JSON.stringify(web.json)).toContain(site.url('/docs/page-3.html'));
    const defaults = await call('firecrawl_search', { query: 'Doc 3' });
    expect(defaults.isError).toBe(false);
    expect(JSON.stringify(defaults.json)).toContain(site.url('/docs/page-3.html'));
    const direct = await tabhive.post('/v2/search', {
      query: 'Doc 3',
      sources: ['web', 'alexandria'],
      toolDetail: 'compact',
      domainTools: true,
    });
    expect(direct.status).toBe(200);
    expect(direct.json.warning).toMatch(
      /no catalogue of data providers.*left out.*domainTools is not served/,
    );
  });

  it('the firecrawl_monitor_* tools create, read, run and delete a monitor (/v2/monitor)', async () => {
    const created = await call('firecrawl_monitor_create', {
      page: site.url('/about.html'),
      goal: 'Tell me when the about page changes',
      name: 'About page',
    });
    expect(created.isError, created.text).toBe(false);
    const id = created.json.data.id as string;
    expect(created.json.data).toMatchObject({ name: 'About page' });

    const listed = await call('firecrawl_monitor_list', {});
    expect(listed.isError, listed.text).toBe(false);
    expect((listed.json.data as Array<{ id: string }>).map((monitor) => monitor.id)).toContain(id);

    const got = await call('firecrawl_monitor_get', { id });
    expect(got.isError, got.text).toBe(false);
    expect(got.json.data).toMatchObject({ id, name: 'About page' });

    const run = await call('firecrawl_monitor_run', { id });
    expect(run.isError, run.text).toBe(false);
    let checks = await call('firecrawl_monitor_checks', { id });
    await waitUntil(
      async () => {
        checks = await call('firecrawl_monitor_checks', { id });
        return (checks.json.data as Array<{ status: string }>).some((check) => check.status === 'completed');
      },
      60_000,
      'a completed monitor check',
    );
    const check = (checks.json.data as Array<{ id: string; status: string }>).find(
      (each) => each.status === 'completed',
    );
    const detail = await call('firecrawl_monitor_check', { id, checkId: check?.id });
    expect(detail.isError, detail.text).toBe(false);
    expect(JSON.stringify(detail.json.data)).toContain(site.url('/about.html'));

    const deleted = await call('firecrawl_monitor_delete', { id });
    expect(deleted.isError, deleted.text).toBe(false);
    const gone = await call('firecrawl_monitor_get', { id });
    expect(gone.isError).toBe(true);
  });

  it('firecrawl_interact runs Playwright code in a tab on a scraped page; firecrawl_interact_stop ends it', async () => {
    // `node` code is Playwright code with `page` in scope, as Firecrawl runs it.
    const opened = await call('firecrawl_interact', {
      url: site.url('/docs/page-2.html'),
      code: 'return await page.evaluate(() => document.querySelector("h1").textContent + " at " + location.pathname);',
      language: 'node',
    });
    expect(opened.isError, opened.text).toBe(false);
    expect(opened.json).toMatchObject({ success: true, result: 'Doc 2 at /docs/page-2.html', exitCode: 0 });
    const scrapeId = opened.json.scrapeId as string;
    expect(scrapeId).toEqual(expect.any(String));

    const again = await call('firecrawl_interact', {
      scrapeId,
      code: 'return await page.title();',
      language: 'node',
    });
    expect(again.isError, again.text).toBe(false);
    expect(again.json).toMatchObject({ success: true, result: 'Doc 2' });

    const stopped = await call('firecrawl_interact_stop', { scrapeId });
    expect(stopped.isError, stopped.text).toBe(false);
    expect(stopped.json).toMatchObject({ success: true, status: 'destroyed' });
  });

  it('firecrawl_extract is retired in firecrawl-mcp 3.x and says so without calling the server', async () => {
    const { isError, text } = await call('firecrawl_extract', { urls: [site.url('/')], prompt: 'the title' });
    expect(isError).toBe(true);
    expect(text).toMatch(/deprecated|firecrawl_scrape/i);
  });

  it("Firecrawl's hosted-only search services get Tabhive's clear 404", async () => {
    const { isError, text } = await call('firecrawl_developer_search', { query: 'koa router' });
    expect(isError).toBe(true);
    expect(text).toMatch(/does not serve|404/);
  });
});
