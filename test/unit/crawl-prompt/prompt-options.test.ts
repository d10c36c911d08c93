import { describe, expect, it } from 'vitest';
import { validOptions } from '../../../server/products/crawl-prompt/ask-llm-for-crawl-options';
import {
  withoutNullOptions,
  withPromptOptions,
} from '../../../server/products/crawl-prompt/with-prompt-options';

describe("a model's answer", () => {
  it('keeps valid options one by one and drops the rest, patterns RE2 refuses included', () => {
    expect(
      validOptions({
        includePaths: ['blog/.*', '(?!x)'],
        limit: 0,
        sitemap: 'only',
        allowSubdomains: true,
        delay: 1.5,
        other: 1,
      }),
    ).toEqual({
      options: { includePaths: ['blog/.*'], allowSubdomains: true, delay: 1.5 },
      dropped: expect.arrayContaining(['includePaths "(?!x)"', 'sitemap', 'limit']) as unknown,
    });
    expect(validOptions(['not', 'an', 'object'])).toEqual({ options: {}, dropped: [] });
  });
});

describe('merging prompt options into a crawl body', () => {
  it('fills in only keys the caller left out or sent as null, never v1 maxDepth', () => {
    const body = withoutNullOptions({ url: 'https://x.test', limit: 3, allowSubdomains: null, prompt: 'p' });
    expect(
      withPromptOptions(body, { limit: 50, allowSubdomains: true, maxDepth: 2, includePaths: ['/blog'] }),
    ).toEqual({
      url: 'https://x.test',
      limit: 3,
      allowSubdomains: true,
      includePaths: ['/blog'],
      prompt: 'p',
    });
  });
});
