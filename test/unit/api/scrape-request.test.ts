import { describe, expect, it } from 'vitest';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { toIssueDetails } from '../../../shared/api/zod-issues';

const UNRECOGNIZED =
  'Unrecognized key in body -- please review the v2 API documentation for request body changes';

function details(body: unknown) {
  const result = ScrapeRequestV2.safeParse(body);
  return result.success ? [] : toIssueDetails(result.error);
}

describe('ScrapeRequestV2', () => {
  it('parses a minimal body with the defaults and both forms of the url', () => {
    const request = ScrapeRequestV2.parse({
      url: 'example.com/page?pagewanted=all&et_blog',
      origin: 'js-sdk@4.42.0',
    });
    expect(request.url).toEqual({
      raw: 'example.com/page?pagewanted=all&et_blog',
      url: 'http://example.com/page?pagewanted=all&et_blog',
    });
    expect(request).toMatchObject({
      origin: 'js-sdk@4.42.0',
      formats: [{ type: 'markdown' }],
      proxy: 'auto',
    });
    expect(request).not.toHaveProperty('integration');
    expect(request).not.toHaveProperty('zeroDataRetention');
  });

  it('requires url', () => {
    expect(details({ formats: ['markdown'] })).toEqual([
      expect.objectContaining({ code: 'invalid_type', path: ['url'] }),
    ]);
  });

  it('refuses unknown keys with Firecrawl’s issue', () => {
    expect(details({ url: 'example.com', foo: 1, bar: true })).toEqual([
      { code: 'unrecognized_keys', keys: ['foo', 'bar'], path: [], message: UNRECOGNIZED },
    ]);
  });

  it('refuses a body that is not an object', () => {
    expect(details(['example.com'])).toEqual([expect.objectContaining({ code: 'invalid_type', path: [] })]);
  });

  it('accepts the fields that SDKs and integrations add', () => {
    const request = ScrapeRequestV2.parse({
      url: 'https://example.com',
      origin: 'python-sdk@3.3.2',
      integration: 'langchain',
      zeroDataRetention: true,
    });
    expect(request).toMatchObject({
      origin: 'python-sdk@3.3.2',
      integration: 'langchain',
      zeroDataRetention: true,
    });
  });

  it('rejects an unknown integration', () => {
    expect(details({ url: 'example.com', integration: 'my-app' })).toEqual([
      expect.objectContaining({ code: 'invalid_value', path: ['integration'] }),
    ]);
  });

  it('accepts private and loopback targets', () => {
    expect(ScrapeRequestV2.parse({ url: '127.0.0.1:8080/page' }).url.url).toBe('http://127.0.0.1:8080/page');
    expect(ScrapeRequestV2.parse({ url: 'localhost:3000/docs' }).url.url).toBe('http://localhost:3000/docs');
  });

  it('reports the url rule that failed', () => {
    expect(details({ url: 'ftp://x.com' })).toEqual([
      { code: 'custom', message: 'URL uses unsupported protocol', path: ['url'] },
    ]);
  });

  it('rejects systemPrompt in the json format', () => {
    expect(
      details({ url: 'example.com', formats: [{ type: 'json', prompt: 'p', systemPrompt: 's' }] }),
    ).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['systemPrompt'], path: ['formats', 0] }),
    ]);
    expect(
      details({ url: 'example.com', formats: [{ type: 'json', prompt: 'p', schema: { type: 'object' } }] }),
    ).toEqual([]);
  });

  it('applies the cross-field rules', () => {
    const waitFor = details({ url: 'example.com', timeout: 30_000, waitFor: 20_000 });
    expect(waitFor).toEqual([
      { code: 'custom', message: 'waitFor must not exceed half of timeout', path: ['waitFor'] },
    ]);
    expect(JSON.stringify(waitFor)).toContain('waitFor must not exceed half of timeout');
    expect(
      details({ url: 'example.com', waitFor: 30_000, actions: [{ type: 'wait', milliseconds: 30_001 }] }),
    ).toEqual([expect.objectContaining({ path: ['actions'] })]);
  });

  it('rejects the v1 screenshot@fullPage format', () => {
    expect(details({ url: 'example.com', formats: ['markdown', 'screenshot@fullPage'] })).toEqual([
      expect.objectContaining({ code: 'custom', path: ['formats', 1] }),
    ]);
  });

  it.each([
    [{ width: -100, height: 0 }],
    [{ width: '1920', height: 1080.5 }],
    [{ width: 8000, height: 100 }],
  ])('rejects the viewport %j', (viewport) => {
    const body = { url: 'example.com', formats: [{ type: 'screenshot', viewport }] };
    const found = details(body);
    expect(found.length).toBeGreaterThan(0);
    for (const issue of found) expect(issue.path.slice(0, 3)).toEqual(['formats', 0, 'viewport']);
  });
});
