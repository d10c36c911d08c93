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
