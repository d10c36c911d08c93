import { describe, expect, it } from 'vitest';
import { TabhiveError } from '../../../server/platform/errors/tabhive-error';
import { httpStatusOf } from '../../../server/api/http/error-status';
import { parseOptionsText } from '../../../server/products/parse/parse-options-text';
import { uploadScrapeRequest } from '../../../server/products/parse/upload-scrape-request';

function refusal(text: string | undefined): TabhiveError {
  try {
    parseOptionsText(text);
  } catch (err) {
    if (err instanceof TabhiveError) return err;
    throw err;
  }
  throw new Error(`expected ${text} to be refused`);
}

const messages = (error: TabhiveError) =>
  (error.details as Array<{ message: string }>).map((issue) => issue.message);

describe('the options of a parse', () => {
  it('defaults to markdown of the main content, like a scrape', () => {
    expect(parseOptionsText(undefined)).toMatchObject({
      formats: [{ type: 'markdown' }],
      onlyMainContent: true,
      proxy: 'auto',
    });
    expect(parseOptionsText('  ')).toMatchObject({ formats: [{ type: 'markdown' }] });
  });

  it('accepts what the SDKs send for a document', () => {
    const options = parseOptionsText(
      JSON.stringify({
        formats: ['markdown', 'html', 'links', { type: 'json', prompt: 'the title' }],
        onlyMainContent: false,
        includeTags: ['table'],
        timeout: 30000,
        parsers: ['pdf'],
        removeBase64Images: false,
        proxy: 'basic',
        origin: 'js-sdk@4.42.0',
        integration: 'langchain',
        zeroDataRetention: true,
        // firecrawl-py lets these through when they ask for nothing.
        waitFor: 0,
        mobile: false,
        actions: [],
      }),
    );
    expect(options).toMatchObject({
      onlyMainContent: false,
      timeout: 30000,
      proxy: 'basic',
      zeroDataRetention: true,
    });
    expect(options.formats.map((format) => format.type)).toEqual(['markdown', 'html', 'links', 'json']);
  });

  it('refuses browser-only, cache and proxy options, saying parse does not support them', () => {
    expect(messages(refusal('{"waitFor":1000}'))).toEqual(['parse does not support waitFor']);
    expect(messages(refusal('{"actions":[{"type":"wait","milliseconds":5}]}'))).toEqual([
      'parse does not support actions',
    ]);
    expect(messages(refusal('{"location":{"country":"DE"}}'))).toEqual([
      'parse does not support location overrides',
    ]);
    expect(messages(refusal('{"mobile":true}'))).toEqual(['parse does not support mobile rendering']);
    expect(messages(refusal('{"maxAge":0,"storeInCache":false}'))).toEqual([
      'parse does not support cache/index options (maxAge)',
      'parse does not support cache/index options (storeInCache)',
    ]);
    expect(messages(refusal('{"minAge":5}'))).toEqual([
      'parse does not support cache/index options (minAge)',
    ]);
    expect(messages(refusal('{"lockdown":true}'))).toEqual([
      'parse does not support cache/index options (lockdown)',
    ]);
    expect(messages(refusal('{"proxy":"stealth"}'))).toEqual([
      "parse only supports proxy values of 'basic' or 'auto'",
    ]);
  });

  it('refuses formats a document cannot give, naming them', () => {
    for (const format of ['screenshot', 'changeTracking', 'branding', 'audio', 'video']) {
      expect(messages(refusal(JSON.stringify({ formats: ['markdown', format] })))).toEqual([
        `parse does not support the ${format} format`,
      ]);
    }
    expect(messages(refusal('{"formats":[{"type":"screenshot","fullPage":true}]}'))).toEqual([
      'parse does not support the screenshot format',
    ]);
  });

  it('answers 400 for options that are not a JSON object, or of the wrong types', () => {
    expect(refusal('{not json')).toMatchObject({
      kind: 'invalid-input',
      details: [{ message: 'The options part is not valid JSON' }],
    });
    expect(refusal('[1,2]')).toMatchObject({
      kind: 'invalid-input',
      details: [{ message: 'The options part must be a JSON object' }],
    });
    expect(httpStatusOf(refusal('"markdown"'))).toBe(400);
    expect(httpStatusOf(refusal('{"formats":"markdown"}'))).toBe(400);
    expect(httpStatusOf(refusal('{"onlyMainContent":"yes"}'))).toBe(400);
    expect(refusal('{"url":"https://example.com"}').details).toMatchObject([{ code: 'unrecognized_keys' }]);
    expect(httpStatusOf(refusal(`${'['.repeat(100)}${']'.repeat(100)}`))).toBe(400);
    expect(httpStatusOf(refusal('{"__proto__":{"admin":true}}'))).toBe(400);
  });

  it('becomes a scrape request for the upload: no page work, no cache, the file name as sourceURL', () => {
    const options = parseOptionsText('{"formats":["html"],"onlyMainContent":true}');
    const request = uploadScrapeRequest(options, 'Q3 report.docx', true);
    expect(request).toMatchObject({
      url: { raw: 'Q3 report.docx', url: 'https://upload.invalid/Q3%20report.docx' },
      waitFor: 0,
      mobile: false,
      storeInCache: false,
      proxy: 'basic',
      // A converted document is all content.
      onlyMainContent: false,
    });
    expect(uploadScrapeRequest(options, 'page.html', false).onlyMainContent).toBe(true);
  });
});
