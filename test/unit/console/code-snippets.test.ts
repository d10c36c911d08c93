import { describe, expect, it } from 'vitest';
import { curlSnippet, javascriptSnippet, pythonSnippet } from '../../../console/code-snippets';

const request = {
  url: "https://example.com/it's",
  formats: ['markdown', 'links'],
  onlyMainContent: false,
  waitFor: 500,
};

describe('console code snippets', () => {
  it('quotes the body of the curl command for a POSIX shell, quotes included', () => {
    const curl = curlSnippet(request, 'http://127.0.0.1:3002', 'fc-key');
    expect(curl).toContain(`'http://127.0.0.1:3002/v2/scrape'`);
    expect(curl).toContain(`-H 'Authorization: Bearer fc-key'`);
    const body = /-d '(.*)'$/s.exec(curl)?.[1]?.replace(/'\\''/g, "'");
    expect(JSON.parse(body ?? '')).toEqual(request);
  });

  it('passes the options to the JavaScript SDK in its own (API) names', () => {
    const js = javascriptSnippet(request, 'http://h:1', 'fc-key');
    expect(js).toContain(`new Firecrawl({ apiKey: "fc-key", apiUrl: "http://h:1" })`);
    expect(js).toContain(`"onlyMainContent": false`);
    expect(js).toContain(`"waitFor": 500`);
    expect(js).not.toContain('"url"');
  });

  it('passes the options to the Python SDK as its snake_case keywords with Python literals', () => {
    const python = pythonSnippet(request, 'http://h:1', 'fc-key');
    expect(python).toContain(`Firecrawl(api_key="fc-key", api_url="http://h:1")`);
    expect(python).toContain(`formats=["markdown", "links"],`);
    expect(python).toContain('only_main_content=False,');
    expect(python).toContain('wait_for=500,');
  });
});

describe('console code snippets for options of the generated form', () => {
  const rich = {
    url: 'https://example.com/',
    formats: ['markdown', { type: 'json', prompt: "the page's title" }],
    includeTags: ['main'],
    location: { country: 'DE', languages: ['de'] },
    lockdown: null,
  };

  it('passes objects and lists through the JavaScript SDK as they are', () => {
    const js = javascriptSnippet(rich, 'http://h:1', 'fc-key');
    const options = /firecrawl\.scrape\("https:\/\/example\.com\/", (.*)\);\n/s.exec(js)?.[1];
    expect(JSON.parse(options ?? '')).toEqual({
      formats: rich.formats,
      includeTags: ['main'],
      location: rich.location,
      lockdown: null,
    });
  });

  it('writes nested values as Python literals, null as None', () => {
    const python = pythonSnippet(rich, 'http://h:1', 'fc-key');
    expect(python).toContain(`formats=["markdown", {"type": "json", "prompt": "the page's title"}],`);
    expect(python).toContain('include_tags=["main"],');
    expect(python).toContain('location={"country": "DE", "languages": ["de"]},');
    expect(python).toContain('lockdown=None,');
    expect(python).not.toContain('# firecrawl-py');
  });
});
