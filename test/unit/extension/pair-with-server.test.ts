import { describe, expect, it } from 'vitest';
import { hubUrlOf, pairWithServer, parseServerUrl } from '../../../extension/hub/pair-with-server';

const answer =
  (status: number, body: unknown): typeof fetch =>
  async () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('pairing from the extension', () => {
  it('finds the hub beside the server, ws for http and wss for https', () => {
    expect(hubUrlOf(parseServerUrl('http://127.0.0.1:3002') as URL)).toBe('ws://127.0.0.1:3002/browser-hub');
    expect(hubUrlOf(parseServerUrl('tabhive.example.com/') as URL)).toBe(
      'wss://tabhive.example.com/browser-hub',
    );
    expect(hubUrlOf(parseServerUrl('https://example.com/tabhive/') as URL)).toBe(
      'wss://example.com/tabhive/browser-hub',
    );
  });

  it('accepts plain http only for a server on this computer', () => {
    expect(parseServerUrl('http://localhost:3002')).toBeInstanceOf(URL);
    expect(parseServerUrl('http://tabhive.lan:3002')).toMatchObject({ code: 'refused' });
    expect(parseServerUrl('ftp://tabhive.example.com')).toMatchObject({ code: 'refused' });
  });

  it('stores what the server hands out', async () => {
    const outcome = await pairWithServer({
      serverUrl: 'https://tabhive.example.com',
      code: 'K7QM-2XRD-9HPA',
      label: 'laptop',
      fetchFn: answer(200, {
        success: true,
        browserId: 'b1',
        deviceToken: 'thd_x',
        team: { id: 't', name: 'Team' },
      }),
    });
    expect(outcome).toEqual({
      ok: true,
      settings: {
        serverUrl: 'wss://tabhive.example.com/browser-hub',
        token: 'thd_x',
        origin: 'paired',
        serverBaseUrl: 'https://tabhive.example.com',
        team: { id: 't', name: 'Team' },
        browserId: 'b1',
      },
    });
  });

  it('names each failure in a way a person can act on', async () => {
    const pair = (fetchFn: typeof fetch) =>
      pairWithServer({ serverUrl: 'https://tabhive.example.com', code: 'X', label: 'l', fetchFn });
    const problem = async (fetchFn: typeof fetch) => {
      const outcome = await pair(fetchFn);
      return outcome.ok ? undefined : outcome.problem.code;
    };
    expect(await problem(answer(410, { success: false, code: 'PAIRING_CODE_EXPIRED', error: 'e' }))).toBe(
      'code-expired',
    );
    expect(await problem(answer(400, { success: false, code: 'PAIRING_CODE_INVALID', error: 'e' }))).toBe(
      'code-invalid',
    );
    expect(await problem(answer(404, { success: false, error: 'Not found' }))).toBe('incompatible');
    expect(await problem(answer(200, { hello: 'world' }))).toBe('incompatible');
    expect(await problem(answer(503, { success: false, code: 'STORE_UNAVAILABLE', error: 'down' }))).toBe(
      'refused',
    );
    expect(
      await problem(async () => {
        throw new TypeError('fetch failed');
      }),
    ).toBe('unreachable');
  });
});
