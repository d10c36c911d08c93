import { describe, expect, it } from 'vitest';
import { FormatsV2 } from '../../../shared/api/v2/formats';

function messages(input: unknown): string[] {
  const result = FormatsV2.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('FormatsV2', () => {
  it('defaults to markdown', () => {
    expect(FormatsV2.parse(undefined)).toEqual([{ type: 'markdown' }]);
  });

  it('normalises strings, objects and a mix of both to the same objects', () => {
    const strings = FormatsV2.parse(['markdown', 'html', 'rawHtml', 'links']);
    const objects = FormatsV2.parse([
      { type: 'markdown' },
      { type: 'html' },
      { type: 'rawHtml' },
      { type: 'links' },
    ]);
    const mixed = FormatsV2.parse(['markdown', { type: 'html' }, 'rawHtml', { type: 'links' }]);
    expect(strings).toEqual([{ type: 'markdown' }, { type: 'html' }, { type: 'rawHtml' }, { type: 'links' }]);
    expect(objects).toEqual(strings);
    expect(mixed).toEqual(strings);
  });

  it('accepts every v2 format name', () => {
    const names = [
      'markdown',
      'html',
      'rawHtml',
      'links',
      'summary',
      'json',
      'changeTracking',
      'screenshot',
      'images',
      'branding',
    ];
    expect(FormatsV2.parse(names).map((format) => format.type)).toEqual(names);
  });

  it('fills in the defaults of format objects', () => {
    expect(FormatsV2.parse(['markdown', 'changeTracking', 'screenshot', 'json'])).toEqual([
      { type: 'markdown' },
      { type: 'changeTracking', modes: [], tag: null },
      { type: 'screenshot', fullPage: false },
      { type: 'json' },
    ]);
  });

  it('keeps the options of json, changeTracking and screenshot', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
    };
    expect(
      FormatsV2.parse([
        'markdown',
        { type: 'json', schema, prompt: 'Extract the title' },
        { type: 'changeTracking', modes: ['git-diff', 'json'], schema, prompt: 'p', tag: 'daily' },
        { type: 'screenshot', fullPage: true, quality: 80, viewport: { width: 1920, height: 1080 } },
      ]),
    ).toEqual([
      { type: 'markdown' },
      { type: 'json', schema, prompt: 'Extract the title' },
      { type: 'changeTracking', modes: ['git-diff', 'json'], schema, prompt: 'p', tag: 'daily' },
      { type: 'screenshot', fullPage: true, quality: 80, viewport: { width: 1920, height: 1080 } },
    ]);
  });

  it('drops unknown keys of simple and screenshot objects', () => {
    expect(
      FormatsV2.parse([
        { type: 'markdown', extra: 1 },
        { type: 'screenshot', color: 'red' },
      ]),
    ).toEqual([{ type: 'markdown' }, { type: 'screenshot', fullPage: false }]);
  });

  it('rejects unknown formats, as names or objects', () => {
    const invalid = FormatsV2.safeParse([{ type: 'invalid-format' }]);
    expect(invalid.success).toBe(false);
    expect(invalid.error?.issues[0]).toMatchObject({ code: 'invalid_union', path: [0, 'type'] });
    expect(FormatsV2.safeParse(['markdown', 'pdf']).success).toBe(false);
    expect(FormatsV2.safeParse([42]).success).toBe(false);
    expect(FormatsV2.safeParse('markdown').success).toBe(false);
  });

  it('rejects the v1-only screenshot@fullPage and extract formats', () => {
    expect(messages(['screenshot@fullPage'])).toEqual([
      'The "screenshot@fullPage" format exists only in the v1 API; in v2 use { "type": "screenshot", "fullPage": true }',
    ]);
    expect(messages([{ type: 'screenshot@fullPage' }])).toHaveLength(1);
    expect(messages(['extract'])).toEqual([
      'The "extract" format exists only in the v1 API; in v2 use { "type": "json" }',
    ]);
  });

  it('allows only one screenshot', () => {
    expect(messages(['screenshot', { type: 'screenshot', fullPage: true }])).toEqual([
      'You may only specify one screenshot format',
    ]);
  });

  it('requires markdown next to changeTracking', () => {
    expect(messages(['html', 'changeTracking'])).toEqual([
      'The changeTracking format requires the markdown format to be specified as well',
    ]);
    expect(messages(['changeTracking', 'markdown'])).toEqual([]);
  });

  it('refuses unknown keys in json and changeTracking objects, such as systemPrompt', () => {
    const systemPrompt = FormatsV2.safeParse([{ type: 'json', prompt: 'p', systemPrompt: 'You are…' }]);
    expect(systemPrompt.error?.issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['systemPrompt'], path: [0] }),
    ]);
    expect(FormatsV2.safeParse(['markdown', { type: 'changeTracking', extra: true }]).success).toBe(false);
  });

  it('checks the fields of json and changeTracking objects', () => {
    expect(FormatsV2.safeParse([{ type: 'json', prompt: 'x'.repeat(10_000) }]).success).toBe(true);
    expect(FormatsV2.safeParse([{ type: 'json', prompt: 'x'.repeat(10_001) }]).success).toBe(false);
    expect(FormatsV2.safeParse(['markdown', { type: 'changeTracking', modes: ['diff'] }]).success).toBe(
      false,
    );
    expect(FormatsV2.parse(['markdown', { type: 'changeTracking', tag: null }])[1]).toMatchObject({
      tag: null,
    });
    expect(FormatsV2.safeParse(['markdown', { type: 'changeTracking', tag: 5 }]).success).toBe(false);
  });

  it.each([
    [{ width: -100, height: 0 }],
    [{ width: '1920', height: 1080 }],
    [{ width: 1920, height: 1080.5 }],
    [{ width: 8000, height: 100 }],
    [{ width: 100, height: 4321 }],
    [{ width: 1920 }],
  ])('rejects the screenshot viewport %j', (viewport) => {
    expect(FormatsV2.safeParse([{ type: 'screenshot', viewport }]).success).toBe(false);
  });

  it('accepts the largest viewport and checks quality', () => {
    expect(
      FormatsV2.safeParse([{ type: 'screenshot', viewport: { width: 7680, height: 4320 } }]).success,
    ).toBe(true);
    expect(FormatsV2.safeParse([{ type: 'screenshot', quality: 100 }]).success).toBe(true);
    expect(FormatsV2.safeParse([{ type: 'screenshot', quality: 0 }]).success).toBe(false);
    expect(FormatsV2.safeParse([{ type: 'screenshot', quality: 50.5 }]).success).toBe(false);
  });
});
