import { describe, expect, it } from 'vitest';
import { ExtractRequestV1 } from '../../../shared/api/v1/extract-request';
import { ExtractRequestV2 } from '../../../shared/api/v2/extract-request';

const messages = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('extract request bodies', () => {
  it('parse what the JS v2 SDK sends, with defaults', () => {
    const parsed = ExtractRequestV2.parse({
      urls: ['https://example.com/*'],
      prompt: 'Find the pricing',
      schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' },
      showSources: true,
      origin: 'js-sdk@4.42.0',
      scrapeOptions: { formats: ['markdown'], onlyMainContent: false },
    });
    expect(parsed).toMatchObject({
      urls: ['https://example.com/*'],
      prompt: 'Find the pricing',
      showSources: true,
      enableWebSearch: false,
      ignoreInvalidURLs: false,
      includeSubdomains: true,
      agentRequested: false,
    });
    expect(parsed.scrapeOptions?.onlyMainContent).toBe(false);
  });

  it('accept the nulls firecrawl-py’s V1FirecrawlApp sends for what was left out', () => {
    const parsed = ExtractRequestV1.parse({
      urls: null,
      prompt: 'Who founded the company?',
      schema: null,
      allowExternalLinks: false,
      enableWebSearch: true,
      showSources: false,
      origin: 'python-sdk@4.53.0',
    });
    expect(parsed.urls).toEqual([]);
    expect(parsed.schema).toBeUndefined();
    expect(parsed.enableWebSearch).toBe(true);
  });

  it('read the older __experimental_showSources and v1 scrape options', () => {
    const parsed = ExtractRequestV1.parse({
      urls: ['https://example.com'],
      schema: { type: 'object' },
      __experimental_showSources: true,
      scrapeOptions: { formats: ['markdown'], parsePDF: false, timeout: 20_000 },
    });
    expect(parsed.showSources).toBe(true);
    expect(parsed.scrapeOptions?.parsers).toEqual([]);
    expect(parsed.scrapeOptions?.timeout).toBe(20_000);
  });

  it('need a prompt or a schema, and URLs unless web search has a prompt', () => {
    expect(messages(ExtractRequestV2.safeParse({ urls: ['https://example.com'] }))).toEqual([
      'Either prompt or schema is required',
    ]);
    expect(messages(ExtractRequestV2.safeParse({ urls: [], prompt: '   ' }))).toEqual([
      'Either prompt or schema is required',
      'urls must list at least one URL, unless enableWebSearch is true and a prompt is given',
    ]);
    expect(ExtractRequestV2.safeParse({ prompt: 'x', enableWebSearch: true }).success).toBe(true);
    expect(ExtractRequestV2.safeParse({ schema: { type: 'object' }, enableWebSearch: true }).success).toBe(
      false,
    );
  });

  it('refuse unknown keys, wrong types, too many URLs and threatProtection', () => {
    expect(ExtractRequestV2.safeParse({ urls: ['https://a.test'], prompt: 'x', limit: 3 }).success).toBe(
      false,
    );
    expect(ExtractRequestV2.safeParse({ urls: 'https://a.test', prompt: 'x' }).success).toBe(false);
    expect(ExtractRequestV2.safeParse({ urls: ['https://a.test'], prompt: 7 }).success).toBe(false);
    const many = Array.from({ length: 101 }, (_, i) => `https://a.test/${i}`);
    expect(ExtractRequestV2.safeParse({ urls: many, prompt: 'x' }).success).toBe(false);
    expect(
      messages(
        ExtractRequestV2.safeParse({
          urls: ['https://a.test'],
          prompt: 'x',
          threatProtection: { mode: 'off' },
        }),
      )[0],
    ).toMatch(/threatProtection is a Firecrawl cloud feature/);
    expect(
      ExtractRequestV2.safeParse({ urls: ['https://a.test'], prompt: 'x', scrapeOptions: { nope: 1 } })
        .success,
    ).toBe(false);
  });

  it('note an agent, which is accepted and not used', () => {
    expect(
      ExtractRequestV2.parse({ urls: ['https://a.test'], prompt: 'x', agent: { model: 'FIRE-1' } })
        .agentRequested,
    ).toBe(true);
  });
});
