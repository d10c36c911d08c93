import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useSiteAndTabhive } from '../helpers/use-site-and-tabhive';

const env = useSiteAndTabhive();

interface Payload {
  name: string;
  method?: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: string | Blob;
  headers?: Record<string, string>;
  /** Sent instead of the test key. */
  authorization?: string;
}

const POST_ROUTES = [
  '/v2/scrape',
  '/v1/scrape',
  '/v2/crawl',
  '/v1/crawl',
  '/v2/batch/scrape',
  '/v1/batch/scrape',
];
/** The field each route reads its URL(s) from: a hostile value goes where a URL is expected. */
const urlField = (route: string) => (route.includes('batch') ? 'urls' : 'url');

const deepArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/**
 * The hostile-input corpus (docs/security.md#hostile-input): deep nesting up to a million levels,
 * huge arrays and strings, prototype-polluting keys at several depths, MongoDB operators where
 * scalars belong, broken encodings and content types, oversized bodies, odd paths, queries and
 * authorization headers — on every body-taking route.
 */
function corpus(fixtureUrl: string): Payload[] {
  const payloads: Payload[] = [];
  const json = (name: string, path: string, body: string) => payloads.push({ name, path, body });
  for (const route of POST_ROUTES) {
    const field = urlField(route);
    const url = JSON.stringify(field === 'urls' ? [fixtureUrl] : fixtureUrl);
    const withUrl = (rest: string) => `{"${field}":${url}${rest === '' ? '' : `,${rest}`}}`;

    for (const depth of [100, 1_000, 10_000, 100_000, 1_000_000])
      json(`${route} arrays ${depth} deep`, route, `{"${field}":${deepArrays(depth)}}`);
    for (const depth of [100, 10_000, 200_000])
      json(`${route} objects ${depth} deep`, route, withUrl(`"x":${deepObjects(depth)}`));

    for (const [where, body] of [
      ['top', withUrl('"__proto__":{"polluted":"yes"}')],
      ['format', withUrl('"formats":[{"type":"markdown","__proto__":{"polluted":"yes"}}]')],
      ['scrapeOptions', withUrl('"scrapeOptions":{"__proto__":{"polluted":"yes"}}')],
      ['constructor', withUrl('"constructor":{"prototype":{"polluted":"yes"}}')],
      ['location', withUrl('"location":{"constructor":{"prototype":{"polluted":"yes"}}}')],
      ['headers', withUrl('"headers":{"__proto__":{"polluted":"yes"}}')],
      ['deep', withUrl('"webhook":{"metadata":{"a":{"b":{"__proto__":{"polluted":"yes"}}}}}')],
    ] as const)
      json(`${route} __proto__ (${where})`, route, body);

    for (const operator of ['{"$ne":null}', '{"$gt":""}', '{"$where":"sleep(1000)"}', '{"$regex":".*"}'])
      json(`${route} ${operator} as the URL`, route, `{"${field}":${operator}}`);
    json(`${route} operator as a limit`, route, withUrl('"limit":{"$gt":0}'));
    json(`${route} operator as formats`, route, withUrl('"formats":{"$in":["markdown"]}'));

    for (const [what, value] of [
      ['lone surrogate', '"\\ud800"'],
      ['NUL byte', '"http://\\u0000.test/"'],
      ['1 MB string', JSON.stringify(`http://a.test/${'a'.repeat(1_000_000)}`)],
      ['2 MB string', JSON.stringify('b'.repeat(2_000_000))],
      ['file URL', '"file:///etc/passwd"'],
      ['javascript URL', '"javascript:alert(1)"'],
      ['zero-width host', '"http://\\u200b.test/"'],
      ['number', '12345'],
      ['null', 'null'],
      ['object', '{}'],
    ] as const)
      json(`${route} ${what} as the URL`, route, `{"${field}":${field === 'urls' ? `[${value}]` : value}}`);

    for (const [what, value] of [
      ['1e309', '1e309'],
      ['-1e308', '-1e308'],
      ['2^53+1', '9007199254740993'],
      ['a fraction', '0.5'],
      ['negative', '-1'],
      ['a string', '"1000"'],
    ] as const)
      json(`${route} timeout ${what}`, route, withUrl(`"timeout":${value},"waitFor":${value}`));

    json(`${route} duplicate keys`, route, `{"${field}":"not a url","${field}":{"$ne":null}}`);
    json(`${route} a million-element array`, route, `{"${field}":[${'0,'.repeat(999_999)}0]}`);
    json(`${route} many formats`, route, withUrl(`"formats":[${'"markdown",'.repeat(60_000)}"html"]`));
    json(`${route} many include paths`, route, withUrl(`"includePaths":[${'"a",'.repeat(20_000)}"b"]`));
    json(`${route} many keys`, route, `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":1`).join(',')}}`);
    json(`${route} unknown keys`, route, withUrl('"__defineGetter__":1,"toString":"x","valueOf":{}'));
    json(
      `${route} catastrophic patterns`,
      route,
      withUrl('"includePaths":["(a+)+$","(?=a)","\\\\1"],"excludePaths":["(.*a){30}"]'),
    );

    for (const [what, body] of [
      ['truncated JSON', `{"${field}":`],
      ['empty body', ''],
      ['JSON null', 'null'],
      ['JSON number', '1'],
      ['JSON string', '"text"'],
      ['JSON true', 'true'],
      ['JSON array', '[]'],
      ['NaN', '{"timeout":NaN}'],
      ['comments', '/* hi */ {"url":"x"}'],
      ['trailing comma', `{"${field}":${url},}`],
      ['single quotes', "{'url':'x'}"],
      ['BOM', `\ufeff${withUrl('"timeout":-5')}`],
    ] as const)
      json(`${route} ${what}`, route, body);

    payloads.push(
      {
        name: `${route} invalid UTF-8`,
        path: route,
        body: new Blob([new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0xc3, 0x28, 0x7d])]),
      },
      {
        name: `${route} gzip bomb`,
        path: route,
        body: new Blob([new Uint8Array(gzipSync(Buffer.alloc(5_000_000, '[')))]),
        headers: { 'content-encoding': 'gzip' },
      },
      {
        name: `${route} no content type`,
        path: route,
        body: `{"${field}":{"$ne":1}}`,
        headers: { 'content-type': '' },
      },
      {
        name: `${route} text/plain`,
        path: route,
        body: 'url=http://a.test',
        headers: { 'content-type': 'text/plain' },
      },
      {
        name: `${route} XML`,
        path: route,
        body: '<url>x</url>',
        headers: { 'content-type': 'application/xml' },
      },
      {
        name: `${route} multipart`,
        path: route,
        body: '--b\r\nContent-Disposition: form-data; name="url"\r\n\r\nx\r\n--b--',
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
      },
      {
        name: `${route} form __proto__`,
        path: route,
        body: '__proto__[polluted]=yes&url=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
      {
        name: `${route} form __proto__ key`,
        path: route,
        body: '__proto__=yes',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
      {
        name: `${route} form constructor`,
        path: route,
        body: 'constructor[prototype][polluted]=yes',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
      {
        name: `${route} odd charset`,
        path: route,
        body: withUrl('"timeout":"x"'),
        headers: { 'content-type': 'application/json; charset=utf-7' },
      },
      { name: `${route} 11 MB body`, path: route, body: `{"x":"${'z'.repeat(11 * 1024 * 1024)}"}` },
    );
  }

  for (const path of [
    '/v2/crawl/..%2F..%2Fetc%2Fpasswd',
    '/v2/crawl/%00',
    `/v2/crawl/${'x'.repeat(10_000)}`,
    '/v2/crawl/00000000-0000-4000-8000-000000000000?skip=-1&limit=1e999',
    '/v2/crawl/00000000-0000-4000-8000-000000000000?skip[$gt]=0&limit[]=1',
    '/v2/batch/scrape/x?__proto__[polluted]=yes',
    '/v2/batch/scrape/x?constructor[prototype][polluted]=yes',
    `/v2/scrape/${encodeURIComponent('{"$ne":null}')}`,
    '/v1/scrape/__proto__',
    '/v2/crawl/constructor/errors',
    '/v1/crawl/__proto__/errors',
    '/v2/team/credit-usage?__proto__[polluted]=yes',
    '/v2/concurrency-check?x=%ud800',
  ])
    payloads.push({ name: `GET ${path.slice(0, 80)}`, method: 'GET', path });
  payloads.push(
    {
      name: 'DELETE with an operator id',
      method: 'DELETE',
      path: `/v2/crawl/${encodeURIComponent('{"$gt":""}')}`,
    },
    { name: 'DELETE __proto__', method: 'DELETE', path: '/v1/batch/scrape/__proto__' },
  );
  for (const [what, authorization] of [
    ['a 100 KB token', `Bearer ${'k'.repeat(100_000)}`],
    ['Basic auth', 'Basic dXNlcjpwYXNz'],
    ['a tab token', 'Bearer \t\t'],
    ['an operator token', 'Bearer {"$ne":null}'],
    ['no token', 'Bearer'],
    ['many spaces', 'Bearer     '],
  ] as const)
    payloads.push({ name: `auth ${what}`, path: '/v2/scrape', body: '{"url":"x"}', authorization });
  return payloads;
}

describe('hostile input', () => {
  it('answers every payload of the corpus without a crash, a 5xx or prototype pollution', async () => {
    const payloads = corpus(env.site.url('/'));
    expect(payloads.length).toBeGreaterThanOrEqual(200);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const payload of payloads) {
      const response = await fetch(`${env.tabhive.url}${payload.path}`, {
        method: payload.method ?? 'POST',
        headers: {
          authorization: payload.authorization ?? `Bearer ${env.tabhive.apiKey}`,
          'content-type': 'application/json',
          ...payload.headers,
        },
        ...(payload.body === undefined ? {} : { body: payload.body }),
      }).catch((err: unknown) => ({ status: 0, text: () => Promise.resolve(String(err)) }));
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status === 0 || response.status >= 500)
        failures.push(`${payload.name}: ${response.status} ${text.slice(0, 200)}`);
      // The server runs in this process: its prototypes are this test's.
      if (
        (Object.prototype as Record<string, unknown>).polluted !== undefined ||
        ({} as Record<string, unknown>).polluted !== undefined
      )
        failures.push(`${payload.name}: polluted Object.prototype`);
      // 431 (headers too large) comes from Node's HTTP parser, before any route, without a body.
      if (
        response.status !== 0 &&
        response.status < 500 &&
        response.status >= 400 &&
        response.status !== 431
      ) {
        // Errors keep Firecrawl's envelope (DELETE's own shape has no `success`).
        let body: { error?: unknown } = {};
        try {
          body = JSON.parse(text) as { error?: unknown };
        } catch {
          failures.push(`${payload.name}: ${response.status} is not JSON: ${text.slice(0, 100)}`);
        }
        if (typeof body.error !== 'string')
          failures.push(
            `${payload.name}: ${response.status} without an error message: ${text.slice(0, 100)}`,
          );
      }
    }
    lag.disable();
    console.log(
      `hostile corpus: ${payloads.length} payloads, statuses ${JSON.stringify(Object.fromEntries(statuses))}, event-loop delay p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms`,
    );
    expect(failures).toEqual([]);
    // Still answering, and still scraping.
    expect(await (await fetch(`${env.tabhive.url}/health`)).json()).toMatchObject({ ok: true, browsers: 1 });
    const scraped = await env.tabhive.post('/v2/scrape', { url: env.site.url('/') });
    expect(scraped.status).toBe(200);
    expect(scraped.json.data.markdown).toContain('Welcome to the hive');
  }, 600_000);
});
