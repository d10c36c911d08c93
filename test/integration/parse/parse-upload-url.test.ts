import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../../helpers/minimal-pdf';
import { addOtherTeam, startTestTabhive } from '../../helpers/start-test-tabhive';
import { createStagedUploads } from '../../../server/products/parse';

/**
 * The two-step parse upload on the whole server (no browser): `POST /v2/parse/upload-url`, the
 * file PUT to the URL it answers, then `POST /v2/parse` with `uploadRef`. Neither installed client
 * (firecrawl 4.42, firecrawl-py 4.55) has a method for it yet, so the steps are sent as HTTP.
 */

let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let otherTeamKey: string;

beforeAll(async () => {
  tabhive = await startTestTabhive({ browsers: 0, env: { PARSE_MAX_FILE_BYTES: String(64 * 1024) } });
  otherTeamKey = await addOtherTeam(tabhive);
}, 60_000);
afterAll(async () => {
  await tabhive?.stop();
});

async function send(
  method: string,
  url: string,
  body: Uint8Array | object | undefined,
  key: string | null = tabhive.apiKey,
) {
  const json = body !== undefined && !(body instanceof Uint8Array) && typeof body === 'object';
  const response = await fetch(url.startsWith('http') ? url : `${tabhive.url}${url}`, {
    method,
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(json ? { 'content-type': 'application/json' } : {}),
    },
    ...(body === undefined ? {} : { body: json ? JSON.stringify(body) : (body as BodyInit) }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
  return { status: response.status, json: (await response.json()) as any };
}

describe('the two-step parse upload', { timeout: 60_000 }, () => {
  it('hands out an upload URL, takes the file there, and parses it by its reference', async () => {
    const issued = await send('POST', '/v2/parse/upload-url', {
      filename: 'two.pdf',
      contentType: 'application/pdf',
    });
    expect(issued.status).toBe(200);
    const { uploadUrl, uploadRef, method, maxBytes, expiresAt } = issued.json.data;
    expect(method).toBe('PUT');
    expect(uploadUrl).toBe(`${tabhive.url}/v2/parse/upload/${uploadRef}`);
    expect(maxBytes).toBe(64 * 1024);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    // Like a presigned URL, the PUT carries no API key: the reference is its secret.
    const put = await send(
      'PUT',
      uploadUrl,
      new Uint8Array(minimalPdf(['First page', 'Second page'], 'Staged')),
      null,
    );
    expect(put).toMatchObject({ status: 200, json: { success: true, data: { uploadRef } } });
    // Another team cannot parse it, nor learn that it exists.
    const stolen = await send('POST', '/v2/parse', { uploadRef }, otherTeamKey);
    expect(stolen).toMatchObject({ status: 404, json: { success: false, code: 'UPLOAD_NOT_FOUND' } });
    const parsed = await send('POST', '/v2/parse', {
      uploadRef,
      formats: ['markdown'],
      parsers: [{ type: 'pdf', pages: true }],
    });
    expect(parsed.status).toBe(200);
    expect(parsed.json.data.markdown).toBe('First page\n\nSecond page');
    expect(parsed.json.data.pages).toHaveLength(2);
    expect(parsed.json.data.metadata).toMatchObject({
      title: 'Staged',
      sourceURL: 'two.pdf',
      numPages: 2,
      creditsUsed: 2,
    });
    // Parsed once: the file is given back.
    expect(await send('POST', '/v2/parse', { uploadRef })).toMatchObject({ status: 404 });
  });

  it('refuses a file over the limit, a second file, and a reference with nothing sent', async () => {
    expect(
      (await send('POST', '/v2/parse/upload-url', { filename: 'big.pdf', sizeBytes: 65 * 1024 })).status,
    ).toBe(413);
    const { uploadUrl, uploadRef } = (await send('POST', '/v2/parse/upload-url', { filename: 'a.pdf' })).json
      .data;
    expect(await send('POST', '/v2/parse', { uploadRef })).toMatchObject({
      status: 409,
      json: { code: 'UPLOAD_NOT_COMPLETE' },
    });
    expect((await send('PUT', uploadUrl, new Uint8Array(65 * 1024), null)).status).toBe(413);
    expect((await send('PUT', uploadUrl, new Uint8Array(minimalPdf(['x'])), null)).status).toBe(200);
    expect(await send('PUT', uploadUrl, new Uint8Array(minimalPdf(['y'])), null)).toMatchObject({
      status: 409,
      json: { code: 'UPLOAD_ALREADY_COMPLETE' },
    });
    expect(
      (await send('PUT', `${tabhive.url}/v2/parse/upload/not-a-real-reference`, new Uint8Array(1), null))
        .status,
    ).toBe(404);
    expect((await send('POST', '/v2/parse/upload-url', { filename: '../etc/passwd' })).status).toBe(400);
  });
});

describe('staged upload bounds', () => {
  it('expires uploads and bounds them per team and in all', () => {
    let now = 0;
    const staged = createStagedUploads(
      { maxFileBytes: 10, ttlMs: 1_000, maxPerTeam: 2, maxTotalBytes: 15 },
      () => now,
    );
    const first = staged.create('t', 'a.pdf', undefined);
    const second = staged.create('t', 'b.pdf', undefined);
    expect(() => staged.create('t', 'c.pdf', undefined)).toThrow(
      expect.objectContaining({ code: 'TOO_MANY_UPLOADS' }),
    );
    staged.put(first.id, Buffer.alloc(10));
    expect(() => staged.put(second.id, Buffer.alloc(10))).toThrow(
      expect.objectContaining({ code: 'UPLOAD_STORAGE_FULL' }),
    );
    now = 1_000;
    expect(() => staged.take('t', first.id, '{}')).toThrow(
      expect.objectContaining({ code: 'UPLOAD_NOT_FOUND' }),
    );
    // Expired uploads free their team's places and their bytes.
    const third = staged.create('t', 'c.pdf', undefined);
    expect(staged.put(third.id, Buffer.alloc(10)).size).toBe(10);
  });
});
