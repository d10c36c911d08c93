/** What the playground sends to `POST /v2/scrape`, in the API's own field names. */
export interface ScrapeRequest {
  url: string;
  formats: string[];
  onlyMainContent?: boolean;
  mobile?: boolean;
  waitFor?: number;
  timeout?: number;
  maxAge?: number;
}

/** The firecrawl-py 4 keyword for each v2 option (its `scrape(url, **options)`). */
const PYTHON_NAMES: Record<Exclude<keyof ScrapeRequest, 'url'>, string> = {
  formats: 'formats',
  onlyMainContent: 'only_main_content',
  mobile: 'mobile',
  waitFor: 'wait_for',
  timeout: 'timeout',
  maxAge: 'max_age',
};

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

const options = (request: ScrapeRequest) =>
  (Object.keys(PYTHON_NAMES) as Array<keyof typeof PYTHON_NAMES>)
    .filter((name) => request[name] !== undefined)
    .map((name) => [name, request[name]] as const);

const pythonValue = (value: unknown): string =>
  typeof value === 'boolean'
    ? value
      ? 'True'
      : 'False'
    : Array.isArray(value)
      ? `[${value.map(pythonValue).join(', ')}]`
      : JSON.stringify(value);

/** A curl command that sends this request to this server and prints the JSON answer. */
export function curlSnippet(request: ScrapeRequest, apiUrl: string, apiKey: string): string {
  return [
    `curl -sS -X POST ${shellQuote(`${apiUrl}/v2/scrape`)} \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${apiKey}`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify(request))}`,
  ].join('\n');
}

/** An ES module for Node 22 with the `firecrawl` npm package (v2 client). */
export function javascriptSnippet(request: ScrapeRequest, apiUrl: string, apiKey: string): string {
  const rest = Object.fromEntries(options(request));
  return [
    `import Firecrawl from 'firecrawl';`,
    ``,
    `const firecrawl = new Firecrawl({ apiKey: ${JSON.stringify(apiKey)}, apiUrl: ${JSON.stringify(apiUrl)} });`,
    `const document = await firecrawl.scrape(${JSON.stringify(request.url)}, ${JSON.stringify(rest, null, 2)});`,
    `console.log(JSON.stringify(document, null, 2));`,
  ].join('\n');
}

/** A Python script with firecrawl-py 4 (`pip install firecrawl-py`). */
export function pythonSnippet(request: ScrapeRequest, apiUrl: string, apiKey: string): string {
  const keywords = options(request).map(
    ([name, value]) => `    ${PYTHON_NAMES[name]}=${pythonValue(value)},`,
  );
  return [
    `from firecrawl import Firecrawl`,
    ``,
    `firecrawl = Firecrawl(api_key=${JSON.stringify(apiKey)}, api_url=${JSON.stringify(apiUrl)})`,
    `document = firecrawl.scrape(`,
    `    ${JSON.stringify(request.url)},`,
    ...keywords,
    `)`,
    `print(document.model_dump_json(indent=2, exclude_none=True))`,
  ].join('\n');
}
