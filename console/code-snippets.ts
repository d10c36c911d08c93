/**
 * What the playground sends to `POST /v2/scrape`, in the API's own field names: the URL, the
 * formats, and whichever options the user set (the form is generated from the request schema).
 */
export interface ScrapeRequest {
  url: string;
  formats: Array<string | Record<string, unknown>>;
  [option: string]: unknown;
}

/**
 * The keywords of firecrawl-py 4's `Firecrawl.scrape(url, **options)`: the SDK turns each into its
 * camelCase API field. An option it has no keyword for cannot be passed through it.
 */
const PYTHON_KEYWORDS = new Set([
  'formats',
  'headers',
  'include_tags',
  'exclude_tags',
  'only_main_content',
  'timeout',
  'wait_for',
  'mobile',
  'parsers',
  'actions',
  'location',
  'skip_tls_verification',
  'remove_base64_images',
  'fast_mode',
  'use_mock',
  'block_ads',
  'proxy',
  'max_age',
  'store_in_cache',
  'lockdown',
  'profile',
  'integration',
]);

const pythonName = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

const options = (request: ScrapeRequest) =>
  Object.entries(request).filter(([name, value]) => name !== 'url' && value !== undefined);

const pythonValue = (value: unknown): string => {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (Array.isArray(value)) return `[${value.map(pythonValue).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, inner]) => `${JSON.stringify(key)}: ${pythonValue(inner)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
};

/** Options of this request that the Python snippet cannot pass (see pythonSnippet). */
export const notInPythonSdk = (request: ScrapeRequest) =>
  options(request)
    .map(([name]) => name)
    .filter((name) => !PYTHON_KEYWORDS.has(pythonName(name)));

/** A curl command that sends this request to this server and prints the JSON answer. */
export function curlSnippet(request: ScrapeRequest, apiUrl: string, apiKey: string): string {
  return [
    `curl -sS -X POST ${shellQuote(`${apiUrl}/v2/scrape`)} \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${apiKey}`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify(request))}`,
  ].join('\n');
}

/** An ES module for Node 22 with the `firecrawl` npm package (v2 client), which sends options as given. */
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

/**
 * A Python script with firecrawl-py 4 (`pip install firecrawl-py`). Options the SDK has no keyword
 * for are named in a comment rather than passed, so the script still runs.
 */
export function pythonSnippet(request: ScrapeRequest, apiUrl: string, apiKey: string): string {
  const given = options(request);
  const keywords = given
    .filter(([name]) => PYTHON_KEYWORDS.has(pythonName(name)))
    .map(([name, value]) => `    ${pythonName(name)}=${pythonValue(value)},`);
  const missing = notInPythonSdk(request);
  return [
    `from firecrawl import Firecrawl`,
    ``,
    ...(missing.length === 0
      ? []
      : [
          `# firecrawl-py's scrape() has no keyword for ${missing.join(', ')}: use curl or the JavaScript SDK for it.`,
        ]),
    `firecrawl = Firecrawl(api_key=${JSON.stringify(apiKey)}, api_url=${JSON.stringify(apiUrl)})`,
    `document = firecrawl.scrape(`,
    `    ${JSON.stringify(request.url)},`,
    ...keywords,
    `)`,
    `print(document.model_dump_json(indent=2, exclude_none=True))`,
  ].join('\n');
}
