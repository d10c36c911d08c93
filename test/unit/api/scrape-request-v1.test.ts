import { describe, expect, it } from 'vitest';
import { ScrapeRequestV1 } from '../../../shared/api/v1/scrape-request';

const parse = (body: Record<string, unknown>) =>
  ScrapeRequestV1.safeParse({ url: 'https://example.com', ...body });
const messages = (body: Record<string, unknown>) => {
  const result = parse(body);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('ScrapeRequestV1', () => {
  it('applies the v1 defaults', () => {
    const { request, jsonKey, warnings } = ScrapeRequestV1.parse({ url: 'example.com' });
    expect(request).toMatchObject({
      formats: [{ type: 'markdown' }],
      timeout: 30_000,
      proxy: 'basic',
      skipTlsVerification: false,
      maxAge: 0,
      parsers: ['pdf'],
      blockAds: true,
      onlyMainContent: true,
      removeBase64Images: true,
      storeInCache: true,
    });
    expect(request.url).toEqual({ raw: 'example.com', url: 'http://example.com/' });
    expect(jsonKey).toBe('json');
    expect(warnings).toEqual([]);
  });

  it('maps v1 formats and options onto the v2 format objects', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const { request, jsonKey } = ScrapeRequestV1.parse({
      url: 'https://example.com',
      formats: ['markdown', 'extract', 'screenshot@fullPage', 'changeTracking'],
      extract: { schema, prompt: 'p', systemPrompt: 'ignored' },
      changeTrackingOptions: { modes: ['git-diff'], tag: 'daily' },
      parsePDF: false,
      geolocation: { country: 'de' },
    });
    expect(jsonKey).toBe('extract');
    expect(request.formats).toEqual([
      { type: 'markdown' },
      { type: 'json', schema, prompt: 'p' },
      { type: 'screenshot', fullPage: true },
      { type: 'changeTracking', modes: ['git-diff'], tag: 'daily' },
    ]);
    expect(request).toMatchObject({
      parsers: [],
      location: { country: 'DE' },
      timeout: 60_000,
      waitFor: 5_000,
    });
  });

  it('applies the timeout transforms only to the 30 s default', () => {
    const json = { formats: ['json'], jsonOptions: { prompt: 'x' } };
    expect(parse(json).data?.request.timeout).toBe(60_000);
    expect(parse({ ...json, timeout: 10_000 }).data?.request.timeout).toBe(10_000);
    expect(parse({ proxy: 'auto' }).data?.request.timeout).toBe(120_000);
    expect(parse({ agent: { model: 'FIRE-1', prompt: 'go' } }).data?.request.timeout).toBe(300_000);
    expect(parse({ agent: { model: 'FIRE-1' } }).data?.warnings[0]).toMatch(/FIRE-1 agent is not available/);
  });

  it('refuses json/extract formats without their options, and options without the format', () => {
    const rule =
      "When 'extract' or 'json' format is specified, corresponding options must be provided, and vice versa";
    expect(messages({ formats: ['json'] })).toContain(rule);
    expect(messages({ formats: ['extract'] })).toContain(rule);
    expect(messages({ jsonOptions: { prompt: 'x' } })).toContain(rule);
    expect(messages({ formats: ['screenshot', 'screenshot@fullPage'] })).toContain(
      'You may only specify either screenshot or screenshot@fullPage',
    );
    expect(
      messages({
        formats: ['json'],
        jsonOptions: { agent: { model: 'FIRE-1' } },
        agent: { model: 'FIRE-1' },
      }),
    ).toContain('You may only specify the FIRE-1 model in agent or jsonOptions.agent, but not both.');
  });

  it('is strict and points to the v1 documentation', () => {
    const result = parse({ parsers: ['pdf'], formats: [{ type: 'markdown' }] });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toContainEqual(
      expect.objectContaining({
        code: 'unrecognized_keys',
        keys: ['parsers'],
        message:
          'Unrecognized key in body -- please review the v1 API documentation for request body changes',
      }),
    );
    expect(messages({ formats: ['json'], jsonOptions: { bogus: 1 } })).toContain(
      'Unrecognized key in body -- please review the v1 API documentation for request body changes',
    );
  });
});
