import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/api/app';
import { DEFAULT_TEAM, createStaticKeyring } from '../../../server/platform/auth/keyring';
import { silentLog } from '../../../server/platform/log/log';
import type { Scraper } from '../../../server/scrape/types/scraper';
import { createScraper } from '../../../server/scrape/create-scraper';
import type { CachedCapture } from '../../../server/scrape/capture/cached-capture';
import { createUrlPolicy } from '../../../server/platform/url-policy/create-url-policy';
import { docx, docxBomb } from '../../fixtures/documents/office-documents';
import { minimalPdf } from '../../helpers/minimal-pdf';
import { serveApp } from '../../helpers/serve-app';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

const API_KEY = 'fc-hostile-uploads-0123456789abcdef';
/** A small cap, so that going past it costs the test little. */
const MAX_FILE_BYTES = 256 * 1024;
const embedded = useEmbeddedStores();

let api: { url: string; close(): Promise<void> };
/** Pages the scraper was asked to fetch: an upload must never ask for one. */
let fetches = 0;

beforeAll(async () => {
  const scraper: Scraper = createScraper({
    runTask: async () => {
      fetches += 1;
      throw new Error('no browser in this test');
    },
    urlPolicy: createUrlPolicy({ allowPrivateNetworks: false }),
    // An upload never reaches the cache: a call here is a failure of the test.
    cachedCapture: (async () => {
      fetches += 1;
      throw new Error('an upload must not look in the cache');
    }) as unknown as CachedCapture,
    results: embedded.stores.results,
    log: silentLog,
  });
  api = await serveApp(
    createApp({
      log: silentLog,
      keyring: createStaticKeyring([{ apiKey: API_KEY, team: DEFAULT_TEAM }]),
      scraper,
      results: embedded.stores.results,
      connectedBrowsers: () => 0,
      storeKind: 'embedded',
      parseMaxFileBytes: MAX_FILE_BYTES,
    }),
  );
});
afterAll(() => api?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Answer = { status: number; json: any; headers: Headers };

async function postForm(form: FormData, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${api.url}/v2/parse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, ...headers },
    body: form,
  });
  return { status: response.status, json: await response.json(), headers: response.headers };
}

function upload(
  bytes: Uint8Array | string,
  filename: string,
  type = '',
  options?: string | object,
): FormData {
  const form = new FormData();
  if (options !== undefined)
    form.append('options', typeof options === 'string' ? options : JSON.stringify(options));
  form.append(
    'file',
    new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }),
    filename,
  );
  return form;
}

/** A raw multipart body, for shapes that FormData will not make. */
async function postRaw(
  body: string | Buffer,
  contentType = 'multipart/form-data; boundary=XyZ',
): Promise<Answer> {
  const response = await fetch(`${api.url}/v2/parse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': contentType },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return { status: response.status, json: await response.json(), headers: response.headers };
}

const part = (name: string, content: string, filename?: string) =>
  `--XyZ\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n\r\n${content}\r\n`;

describe('POST /v2/parse refuses hostile uploads', () => {
  it('answers 400 for a body without a file part, with two files, or with a file part without a name', async () => {
    const noFile = new FormData();
    noFile.append('options', '{}');
    expect(await postForm(noFile)).toMatchObject({
      status: 400,
      json: {
        success: false,
        code: 'BAD_REQUEST',
        details: [{ message: 'The body has no "file" part with the document' }],
      },
    });
    const twoFiles = upload('one', 'a.txt');
    twoFiles.append('file', new Blob(['two']), 'b.txt');
    expect((await postForm(twoFiles)).json.details).toEqual([
      { code: 'custom', message: 'Send exactly one file; this request has more', path: ['file'] },
    ]);
    expect((await postRaw(`${part('file', 'just text')}--XyZ--\r\n`)).json.details[0].message).toBe(
      'The "file" part must be a file: give it a filename in its Content-Disposition',
    );
    expect(
      (await postRaw(`${part('extra', 'x')}${part('file', 'x', 'a.txt')}--XyZ--\r\n`)).json.details[0]
        .message,
    ).toBe('Unexpected part "extra": send only "file" and "options"');
  });

  it('answers 400 for options that are huge, not JSON or of the wrong types', async () => {
    const huge = await postForm(
      upload('text', 'a.txt', 'text/plain', `{"origin":"${'x'.repeat(1024 * 1024)}"}`),
    );
    expect(huge).toMatchObject({
      status: 400,
      json: { details: [{ message: 'The options part is larger than 1048576 bytes' }] },
    });
    expect(
      (await postForm(upload('text', 'a.txt', 'text/plain', 'formats=markdown'))).json.details[0].message,
    ).toBe('The options part is not valid JSON');
    const wrong = await postForm(
      upload('text', 'a.txt', 'text/plain', { formats: 'markdown', timeout: 'soon' }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.json.details.map((issue: { path: unknown[] }) => issue.path[0]).sort()).toEqual([
      'formats',
      'timeout',
    ]);
    const twice = upload('text', 'a.txt', 'text/plain', {});
    twice.append('options', '{}');
    expect((await postForm(twice)).json.details[0].message).toBe('The options part is sent twice');
  });

  it('answers 415 to a body that is not multipart, and 400 to one that is malformed', async () => {
    expect(await postRaw('{"file":"x"}', 'application/json')).toMatchObject({
      status: 415,
      json: { code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
    expect((await postRaw(part('file', 'x', 'a.txt'), 'multipart/form-data')).status).toBe(400);
    // The closing boundary never comes.
    const truncated = await postRaw(
      `${part('options', '{}')}--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhalf`,
    );
    expect(truncated).toMatchObject({
      status: 400,
      json: { details: [{ message: expect.stringContaining('malformed') }] },
    });
  });

  it('refuses a file over the cap with 413, at once when Content-Length says so', async () => {
    const tooBig = await postForm(upload(Buffer.alloc(MAX_FILE_BYTES + 1, 0x61), 'big.txt', 'text/plain'));
    expect(tooBig).toMatchObject({
      status: 413,
      json: {
        code: 'PAYLOAD_TOO_LARGE',
        error: `The uploaded file is larger than ${MAX_FILE_BYTES} bytes (PARSE_MAX_FILE_BYTES)`,
      },
    });
    // A declared body far beyond the cap: answered from the headers, the body never sent.
    const answer = await rawRequest(
      `POST /v2/parse HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${API_KEY}\r\n` +
        'Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 5000000000\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/connection: close/i);
  });

  it('checks the key before reading the body', async () => {
    const response = await fetch(`${api.url}/v2/parse`, { method: 'POST', body: upload('x', 'a.txt') });
    expect(response.status).toBe(401);
  });

  it('answers 422 to a truncated DOCX and to a corrupt PDF, naming the problem', async () => {
    const truncated = docx([{ paragraph: 'Words' }]);
    const broken = await postForm(upload(truncated.subarray(0, truncated.length - 40), 'report.docx'));
    expect(broken).toMatchObject({
      status: 422,
      json: {
        success: false,
        code: 'UNREADABLE_DOCUMENT',
        error: expect.stringContaining('zip archive is truncated or corrupt'),
      },
    });
    const pdf = minimalPdf(['One']);
    const corrupt = await postForm(
      upload(Buffer.concat([pdf.subarray(0, 40), Buffer.from('garbage')]), 'scan.pdf'),
    );
    expect(corrupt).toMatchObject({
      status: 422,
      json: {
        code: 'UNREADABLE_DOCUMENT',
        error: expect.stringContaining('The PDF document could not be read: the PDF is corrupt'),
      },
    });
  });

  it('answers 415 to a mislabelled file and to one of no supported kind, with the detected type', async () => {
    const mislabelled = await postForm(upload(minimalPdf(['x']), 'report.docx'));
    expect(mislabelled).toMatchObject({
      status: 415,
      json: { code: 'UNSUPPORTED_FILE_TYPE', details: { detectedType: 'application/pdf' } },
    });
    const png = await postForm(
      upload(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), 'image.png', 'image/png'),
    );
    expect(png).toMatchObject({
      status: 415,
      json: { error: expect.stringContaining('PNG image (image/png)') },
    });
  });

  it('fetches nothing for an upload, and still works after all of the above', async () => {
    const ok = await postForm(upload('Plain words.\n', 'notes.txt', 'text/plain'));
    expect(ok).toMatchObject({ status: 200, json: { success: true, data: { markdown: 'Plain words.' } } });
    expect(fetches).toBe(0);
  });
});

describe('a real zip bomb under the default caps', () => {
  let defaults: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    defaults = await serveApp(
      createApp({
        log: silentLog,
        keyring: createStaticKeyring([{ apiKey: API_KEY, team: DEFAULT_TEAM }]),
        scraper: { scrape: () => Promise.reject(new Error('a bomb must not reach the scraper')) },
        results: embedded.stores.results,
        connectedBrowsers: () => 0,
        storeKind: 'embedded',
      }),
    );
  });
  afterAll(() => defaults?.close());

  it('is refused with 422 for what it unpacks to, without holding it', async () => {
    const response = await fetch(`${defaults.url}/v2/parse`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}` },
      body: upload(docxBomb(), 'bomb.docx'),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      success: false,
      code: 'ARCHIVE_LIMIT_EXCEEDED',
      error:
        'The Word document (DOCX) is refused: the zip entry word/document.xml unpacks to more than the 1024 bytes its header declares (a zip bomb)',
    });
  });
});

/** Sends `head` on a raw connection and returns what the server answered when it closed. */
async function rawRequest(head: string): Promise<string> {
  const { port } = new URL(api.url);
  const socket: Socket = connect(Number(port), '127.0.0.1');
  socket.on('error', () => undefined);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head);
  await closed;
  return received;
}
