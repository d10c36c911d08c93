import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/platform/config';
import { createLog } from '../../../server/platform/log/log';
import { startTabhive, type RunningTabhive } from '../../../server/start-tabhive';
import { docx, ods, pptx, xlsx } from '../../fixtures/documents/office-documents';
import { minimalPdf } from '../../helpers/minimal-pdf';
import { waitUntil } from '../../helpers/start-test-tabhive';

const ADMIN_KEY = 'admin-key-for-parse-tests-0123456789';
const DEFAULT_KEY = 'fc-default-key-for-parse-tests';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Answer = { status: number; json: any };

/**
 * `POST /v2/parse` through the whole server as main.ts composes it (real stores, the credit
 * ledger, the derivation pool, conversion threads), with no browser: an upload needs none.
 */
describe('POST /v2/parse', () => {
  let tabhive: RunningTabhive;
  let dataDir: string;
  let apiKey: string;

  const call = async (method: string, pathname: string, key: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${tabhive.url}${pathname}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: await response.json() };
  };

  const parse = async (
    bytes: Uint8Array | string,
    filename: string,
    options?: object,
    type = '',
  ): Promise<Answer> => {
    const form = new FormData();
    if (options !== undefined) form.append('options', JSON.stringify(options));
    form.append(
      'file',
      new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }),
      filename,
    );
    const response = await fetch(`${tabhive.url}/v2/parse`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: form,
    });
    return { status: response.status, json: await response.json() };
  };

  const remainingCredits = async () =>
    (await call('GET', '/v2/team/credit-usage', apiKey)).json.data.remainingCredits as number;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-parse-'));
    tabhive = await startTabhive({
      config: loadConfig({
        PORT: '0',
        BROWSERS: '0',
        DATA_DIR: dataDir,
        API_KEY: DEFAULT_KEY,
        ADMIN_API_KEY: ADMIN_KEY,
      }),
      server: createServer(),
      log: createLog({ quiet: true }),
    });
    await call('POST', '/admin/v1/teams', ADMIN_KEY, {
      id: 'readers',
      name: 'Readers',
      creditAllowance: 100,
    });
    apiKey = (await call('POST', '/admin/v1/teams/readers/keys', ADMIN_KEY, { label: 'parse' })).json.data
      .apiKey;
  });
  afterAll(async () => {
    await tabhive?.stop();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers a DOCX as a scrape Document, books one credit, and keeps it for GET /v2/scrape/:id', async () => {
    const before = await remainingCredits();
    const answer = await parse(
      docx(
        [
          { heading: 'Quarterly report' },
          { paragraph: 'Honey sales rose.' },
          { link: 'Details', href: 'https://example.com/q3' },
        ],
        {
          title: 'Q3',
        },
      ),
      'q3-report.docx',
      { formats: ['markdown', 'html', 'links'] },
    );
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    const data = answer.json.data;
    expect(data.markdown).toBe(
      '# Quarterly report\n\nHoney sales rose.\n\n[Details](https://example.com/q3)',
    );
    expect(data.html).toContain('<h1>Quarterly report</h1>');
    expect(data.links).toEqual(['https://example.com/q3']);
    expect(data.metadata).toMatchObject({
      title: 'Q3',
      sourceURL: 'q3-report.docx',
      url: 'https://upload.invalid/q3-report.docx',
      statusCode: 200,
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      creditsUsed: 1,
      proxyUsed: 'basic',
    });
    expect(data.metadata.scrapeId).toMatch(/^[0-9a-f-]{36}$/);
    await waitUntil(async () => (await remainingCredits()) === before - 1, 5_000, 'one credit booked');

    const stored = await call('GET', `/v2/scrape/${data.metadata.scrapeId}`, apiKey);
    expect(stored).toEqual({ status: 200, json: { success: true, data } });
    // Another team's key does not see it.
    expect((await call('GET', `/v2/scrape/${data.metadata.scrapeId}`, DEFAULT_KEY)).status).toBe(404);
    // An upload is no page to interact with: a clear 400, never a browser sent to its address.
    const interact = await call('POST', `/v2/scrape/${data.metadata.scrapeId}/interact`, apiKey, {
      code: 'return document.title',
    });
    expect(interact.status).toBe(400);
    expect(interact.json).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(interact.json.error).toMatch(/parsed upload, not a web page/);
  });

  it('parses a PDF page by page and books a credit per page, or a flat one with parsers: []', async () => {
    const pdf = minimalPdf(['First page', 'Second page', 'Third page'], 'Three pages');
    const before = await remainingCredits();
    const parsed = await parse(pdf, 'three.pdf');
    expect(parsed.status, JSON.stringify(parsed.json)).toBe(200);
    expect(parsed.json.data.markdown).toBe('First page\n\nSecond page\n\nThird page');
    expect(parsed.json.data.metadata).toMatchObject({
      title: 'Three pages',
      numPages: 3,
      creditsUsed: 3,
      contentType: 'application/pdf',
      sourceURL: 'three.pdf',
    });
    const raw = await parse(pdf, 'three.pdf', { parsers: [] });
    expect(raw.json.data.markdown.startsWith('JVBER')).toBe(true);
    expect(raw.json.data.metadata.creditsUsed).toBe(1);
    await waitUntil(async () => (await remainingCredits()) === before - 4, 5_000, 'four credits booked');
  });

  it('makes a table of every sheet of an XLSX and of an ODS, and a section of every slide of a PPTX', async () => {
    const workbook = await parse(
      xlsx([
        {
          name: 'Hives',
          rows: [
            ['Hive', 'Bees'],
            ['North', 40000],
          ],
        },
        {
          name: 'Keepers',
          rows: [
            ['Name', 'Since'],
            ['Ada', 2019],
          ],
        },
      ]),
      'hives.xlsx',
    );
    expect(workbook.json.data.markdown).toBe(
      '## Hives\n\n| Hive | Bees |\n| --- | --- |\n| North | 40000 |\n\n## Keepers\n\n| Name | Since |\n| --- | --- |\n| Ada | 2019 |',
    );
    expect(workbook.json.data.metadata).toMatchObject({ title: 'hives', sourceURL: 'hives.xlsx' });
    const spreadsheet = await parse(
      ods([
        {
          name: 'Flowers',
          rows: [
            ['Flower', 'Colour'],
            ['Clover', 'white'],
          ],
        },
      ]),
      'flowers.ods',
    );
    expect(spreadsheet.json.data.markdown).toBe(
      '## Flowers\n\n| Flower | Colour |\n| --- | --- |\n| Clover | white |',
    );
    const deck = await parse(
      pptx([
        { title: 'Why bees', body: ['Pollination'] },
        { title: 'How', body: ['Hives', 'Keepers'] },
      ]),
      'deck.pptx',
    );
    expect(deck.json.data.markdown).toBe(
      '## Slide 1: Why bees\n\nPollination\n\n## Slide 2: How\n\nHives\n\nKeepers',
    );
  });

  it('reads HTML as a page (main content, its own title), Markdown, CSV and plain text', async () => {
    const html = await parse(
      '<!doctype html><html><head><title>Saved page</title></head><body><nav><a href="/home">Home</a> <a href="/about">About</a></nav>' +
        '<main><h1>Bees</h1><p>Bees make honey from the nectar of flowers, and they pollinate crops as they go.</p></main>' +
        '<footer>Copyright</footer></body></html>',
      'saved.html',
      { formats: ['markdown', 'links'] },
      'text/html',
    );
    expect(html.json.data.markdown).toBe(
      '# Bees\n\nBees make honey from the nectar of flowers, and they pollinate crops as they go.',
    );
    expect(html.json.data.metadata).toMatchObject({ title: 'Saved page', contentType: 'text/html' });
    const markdown = await parse('# Notes\n\n- **bold** item\n- [link](https://example.com)\n', 'notes.md');
    expect(markdown.json.data.markdown).toBe('# Notes\n\n- **bold** item\n- [link](https://example.com/)');
    expect(markdown.json.data.metadata).toMatchObject({ title: 'Notes', contentType: 'text/markdown' });
    const csv = await parse('city,hives\nParis,12\n', 'hives.csv', undefined, 'text/csv');
    expect(csv.json.data.markdown).toBe('| city | hives |\n| --- | --- |\n| Paris | 12 |');
    const text = await parse('Line one.\n*Stars stay stars.*\n', 'readme.txt');
    expect(text.json.data).toMatchObject({
      markdown: 'Line one.\n*Stars stay stars.*',
      metadata: { title: 'readme', contentType: 'text/plain', creditsUsed: 1 },
    });
  });

  it('keeps nothing with zeroDataRetention', async () => {
    const answer = await parse('Secret words.', 'secret.txt', { zeroDataRetention: true });
    expect(answer.status).toBe(200);
    expect((await call('GET', `/v2/scrape/${answer.json.data.metadata.scrapeId}`, apiKey)).status).toBe(404);
  });

  it('refuses options parse does not support, before converting anything', async () => {
    const answer = await parse('x', 'a.txt', { waitFor: 1000, formats: ['screenshot'] });
    expect(answer).toMatchObject({ status: 400, json: { success: false, code: 'BAD_REQUEST' } });
    expect(answer.json.details.map((issue: { message: string }) => issue.message).sort()).toEqual([
      'parse does not support the screenshot format',
      'parse does not support waitFor',
    ]);
  });

  it('lists the kinds it converts at GET /v2/parse/formats', async () => {
    const answer = await call('GET', '/v2/parse/formats', apiKey);
    expect(answer.status).toBe(200);
    expect(answer.json.data.formats).toContainEqual({
      format: 'docx',
      kind: 'document',
      extensions: ['.docx', '.docm'],
      mimeTypes: [
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'application/vnd.ms-word.document.macroenabled.12',
      ],
      available: true,
    });
  });
});
