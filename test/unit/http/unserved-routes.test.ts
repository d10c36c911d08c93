import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/api/app';
import { DEFAULT_TEAM, createStaticKeyring } from '../../../server/platform/auth/keyring';
import { silentLog } from '../../../server/platform/log/log';
import type { Scraper } from '../../../server/scrape/types/scraper';
import type { ResultStore } from '../../../server/platform/store/stores/result-store';
import { serveApp } from '../../helpers/serve-app';

const API_KEY = 'fc-0123456789abcdef0123456789abcdef';
let api: { url: string; close(): Promise<void> };

beforeAll(async () => {
  // No request here reaches a route, so the scraper and the store are never called.
  const unused = {} as never;
  const app = createApp({
    log: silentLog,
    keyring: createStaticKeyring([{ apiKey: API_KEY, team: DEFAULT_TEAM }]),
    scraper: unused as Scraper,
    results: unused as ResultStore,
    connectedBrowsers: () => 0,
    storeKind: 'embedded',
  });
  api = await serveApp(app);
});
afterAll(() => api.close());

describe('Firecrawl endpoints that Tabhive does not serve', () => {
  const calls: Array<[method: string, path: string, feature: string]> = [
    ['POST', '/v2/search/developer', 'specialised search'],
    ['POST', '/v1/x402/search', 'x402 payments'],
    ['POST', '/v2/search/research/papers', 'specialised search'],
    ['POST', '/v2/search/s1/feedback', 'feedback'],
  ];

  it.each(calls)('%s %s answers a JSON 404 that names the feature', async (method, path, feature) => {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: '{}' } : {}),
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { success: boolean; code: string; error: string };
    expect(body).toMatchObject({ success: false, code: 'UNSUPPORTED_ENDPOINT' });
    expect(body.error).toContain(feature);
    expect(body.error).toContain(`${method} ${path}`);
  });

  it('answers a known path asked with another method with a JSON 405 and Allow', async () => {
    const put = await fetch(`${api.url}/v2/scrape`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('POST');
    expect(await put.json()).toMatchObject({ success: false, code: 'METHOD_NOT_ALLOWED' });
    // Methods the router does not know at all (TRACE, PROPFIND…) answered 501 Not Implemented in plain text.
    const trace = await fetch(`${api.url}/health`, { method: 'PROPFIND' });
    expect(trace.status).toBe(405);
    expect(await trace.json()).toMatchObject({ success: false, code: 'METHOD_NOT_ALLOWED' });
  });

  it('leaves other unknown paths with the plain JSON 404', async () => {
    const response = await fetch(`${api.url}/v2/no-such-thing`);
    expect(await response.json()).toEqual({ success: false, error: 'Not found' });
  });
});
