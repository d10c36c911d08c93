import { describe, expect, it } from 'vitest';
import { pythonSnippet } from '../../../console/code-snippets';
import {
  buildScrapeRequest,
  initialFormState,
  scrapeFormFromOpenApi,
  type FormState,
} from '../../../console/schema-form';
import { apiOperations } from '../../../server/api/openapi/api-operations';
import { buildOpenApiDocument } from '../../../server/api/openapi/build-openapi-document';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';

// The same document the server serves at /openapi.json, JSON-round-tripped as the browser gets it.
const document: unknown = JSON.parse(
  JSON.stringify(buildOpenApiDocument(apiOperations, { version: '0.0.0-test' })),
);
const form = scrapeFormFromOpenApi(document);
const field = (name: string) => {
  const found = form.fields.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no field ${name}`);
  return found;
};
const stateWith = (change: Partial<FormState>): FormState => ({
  ...initialFormState(),
  url: 'https://example.com/',
  ...change,
});

describe('the playground form generated from /openapi.json', () => {
  it('offers every format name of the schema, with the options of its object form', () => {
    const names = form.formats.map((format) => format.name);
    expect(names).toEqual(
      expect.arrayContaining(['markdown', 'html', 'rawHtml', 'links', 'screenshot', 'json']),
    );
    expect(form.formats.find((format) => format.name === 'markdown')?.optionNames).toEqual([]);
    expect(form.formats.find((format) => format.name === 'json')?.optionNames.sort()).toEqual([
      'checkPromptInjection',
      'prompt',
      'schema',
    ]);
    expect(form.formats.find((format) => format.name === 'knowledgeGraph')?.optionNames.sort()).toEqual(
      expect.arrayContaining(['entityTypes']),
    );
    expect(form.formats.find((format) => format.name === 'screenshot')?.optionNames).toContain('fullPage');
    expect(form.formats.find((format) => format.name === 'question')?.requiredOptions).toEqual(['question']);
  });

  it('maps each option to the widget its schema calls for, with the bounds and defaults of zod', () => {
    expect(field('onlyMainContent')).toMatchObject({ kind: 'boolean', defaultValue: true, advanced: false });
    expect(field('mobile')).toMatchObject({ kind: 'boolean', defaultValue: false });
    expect(field('waitFor')).toMatchObject({ kind: 'number', integer: true, min: 0, max: 60_000 });
    // zod's positive() becomes exclusiveMinimum 0: the smallest whole number allowed is 1.
    expect(field('timeout')).toMatchObject({ kind: 'number', min: 1, max: 300_000 });
    expect(field('maxAge').max).toBeUndefined();
    expect(field('proxy')).toMatchObject({ kind: 'enum', defaultValue: 'auto', advanced: true });
    expect(field('proxy').choices).toEqual(expect.arrayContaining(['basic', 'stealth', 'auto']));
    expect(field('includeTags').kind).toBe('list');
    expect(field('excludeTags').kind).toBe('list');
    expect(field('actions')).toMatchObject({ kind: 'json', jsonType: 'array' });
    expect(field('headers')).toMatchObject({ kind: 'json', jsonType: 'object' });
    expect(field('location')).toMatchObject({ kind: 'json', jsonType: 'object' });
    expect(field('waitFor').help).toContain('From 0 to 60000.');
    expect(field('onlyMainContent').help).toContain('Default: true.');
    expect(field('location').help).toContain('Keys: country, languages.');
    expect(field('actions').help).toMatch(/Each item has a type: wait, click, .*executeJavascript/);
    // Internal and analytics fields are not offered.
    const names = form.fields.map((candidate) => candidate.name);
    expect(names).not.toContain('url');
    expect(names).not.toContain('formats');
    expect(names.filter((name) => name.startsWith('__'))).toEqual([]);
    expect(names).not.toContain('useMock');
    // The common options come first, in the order the form shows them.
    expect(form.fields.filter((candidate) => !candidate.advanced).map((candidate) => candidate.name)).toEqual(
      ['onlyMainContent', 'mobile', 'waitFor', 'timeout', 'maxAge'],
    );
  });

  it('sends only what the user changed, and the body passes the route’s own zod schema', () => {
    const untouched = buildScrapeRequest(form, stateWith({}));
    expect(untouched).toEqual({ body: { url: 'https://example.com/', formats: ['markdown'] }, problems: {} });

    const changed = buildScrapeRequest(
      form,
      stateWith({
        formats: ['markdown', 'links', 'json'],
        formatOptions: { json: '{"prompt": "the title"}' },
        values: {
          onlyMainContent: false,
          mobile: false, // left at its default: not sent
          waitFor: '250',
          timeout: '',
          includeTags: ' main, article ,',
          proxy: 'basic',
          location: '{"country": "DE"}',
          actions: '[{"type": "wait", "milliseconds": 10}]',
        },
      }),
    );
    expect(changed.problems).toEqual({});
    expect(changed.body).toEqual({
      url: 'https://example.com/',
      formats: ['markdown', 'links', { type: 'json', prompt: 'the title' }],
      onlyMainContent: false,
      waitFor: 250,
      includeTags: ['main', 'article'],
      proxy: 'basic',
      location: { country: 'DE' },
      actions: [{ type: 'wait', milliseconds: 10 }],
    });
    expect(ScrapeRequestV2.safeParse(changed.body).success).toBe(true);
  });

  it('names the entries it cannot use and leaves them out of the body', () => {
    const { body, problems } = buildScrapeRequest(
      form,
      stateWith({
        formats: ['markdown', 'json'],
        formatOptions: { json: '{"prompt": ' },
        values: { waitFor: '70000', timeout: '1.5', headers: '["x"]', actions: '{ nope' },
      }),
    );
    expect(problems).toEqual({
      'format:json': expect.stringMatching(/^Not valid JSON/),
      waitFor: 'From 0 to 60000.',
      timeout: 'Enter a whole number.',
      headers: 'Enter a JSON object: { … }.',
      actions: expect.stringMatching(/^Not valid JSON/),
    });
    expect(body).toEqual({ url: 'https://example.com/', formats: ['markdown', 'json'] });
  });

  it('refuses a document without the scrape request schema', () => {
    expect(() => scrapeFormFromOpenApi({ paths: {} })).toThrow(/no scrape request schema/);
  });

  it('gives the Python SDK every option it has a keyword for, objects as Python literals', () => {
    const { body } = buildScrapeRequest(
      form,
      stateWith({
        formats: ['markdown', 'screenshot'],
        formatOptions: { screenshot: '{"fullPage": true, "quality": null}' },
        values: { skipTlsVerification: false, location: '{"country": "DE"}', minAge: '5' },
      }),
    );
    const python = pythonSnippet(body, 'http://h:1', 'fc-key');
    expect(python).toContain(
      'formats=["markdown", {"fullPage": True, "quality": None, "type": "screenshot"}],',
    );
    expect(python).toContain('skip_tls_verification=False,');
    expect(python).toContain('location={"country": "DE"},');
    // firecrawl-py's scrape() has no min_age keyword: named in a comment, not passed (it would raise).
    expect(python).not.toContain('min_age=');
    expect(python).toContain("# firecrawl-py's scrape() has no keyword for minAge");
  });
});
