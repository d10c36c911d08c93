import { z } from 'zod';
import { COUNTRY_CODES } from '../../../shared/api/country-codes';

/** One upstream proxy of the pool. `url` may hold credentials: it is never logged or shown. */
export interface ProxyEntry {
  /** `host:port` (with `#2`, `#3`… for a repeat): what logs, metrics and the console show. */
  readonly id: string;
  /** The proxy's URL as configured, credentials included: only for connecting. */
  readonly url: string;
  readonly protocol: 'http' | 'https' | 'socks5';
  /** ISO 3166-1 alpha-2, upper-cased; undefined when the operator gave none. */
  readonly country: string | undefined;
}

export class ProxyPoolConfigError extends Error {}

/** SOCKS4 is left out: the server's own fetches (undici) cannot use it. */
const PROTOCOLS = ['http', 'https', 'socks5'] as const;

/**
 * One entry as written. Messages name the entry by its position, never by its text, which holds
 * the proxy's password.
 */
const EntryInput = z.object({
  url: z.string().refine((text) => {
    const url = URL.parse(text);
    return (
      url !== null &&
      PROTOCOLS.some((protocol) => url.protocol === `${protocol}:`) &&
      url.hostname !== '' &&
      (url.pathname === '' || url.pathname === '/') &&
      url.search === '' &&
      url.hash === ''
    );
  }, 'is not a proxy URL: http://, https:// or socks5://[user:password@]host:port'),
  country: z
    .string()
    .transform((country) => country.toUpperCase())
    .refine((country) => COUNTRY_CODES.has(country), 'has a country that is not an ISO 3166-1 alpha-2 code')
    .optional(),
});
type EntryInput = z.infer<typeof EntryInput>;

const JsonEntries = z.array(
  z.union([z.string(), z.object({ url: z.string(), country: z.string().optional() })]),
);

/** `URL [COUNTRY]`, as a line of the file or an item of PROXY_POOL. */
const fromWords = (text: string) => {
  const [url = '', country, ...rest] = text.trim().split(/\s+/);
  return rest.length > 0 ? { url, country, extra: true } : { url, country, extra: false };
};

const defaultPort = (protocol: string) =>
  protocol === 'https' ? '443' : protocol === 'http' ? '80' : '1080';

/**
 * The pool from PROXY_POOL (comma-separated `URL [COUNTRY]`) and PROXY_POOL_FILE's text (one
 * `URL [COUNTRY]` a line, `#` comments, or a JSON array of URLs or `{url, country}`). Throws
 * ProxyPoolConfigError naming every bad entry by where it is, without its text.
 */
export function parseProxyPool({
  list,
  file,
}: {
  list?: string | undefined;
  file?: { path: string; text: string } | undefined;
}): ProxyEntry[] {
  const raw: Array<{ where: string; input: unknown }> = [];
  const problems: string[] = [];
  (list ?? '')
    .split(',')
    .map((item) => item.trim())
    .forEach((item, index) => {
      if (item === '') return;
      const { url, country, extra } = fromWords(item);
      if (extra) problems.push(`PROXY_POOL item ${index + 1}: more than a URL and a country`);
      else raw.push({ where: `PROXY_POOL item ${index + 1}`, input: { url, country } });
    });
  if (file !== undefined) {
    const text = file.text.trim();
    if (text.startsWith('[')) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        problems.push(`PROXY_POOL_FILE ${file.path}: not valid JSON`);
      }
      const entries = JsonEntries.safeParse(json);
      if (json !== undefined && !entries.success) {
        problems.push(`PROXY_POOL_FILE ${file.path}: a JSON array of URLs or {"url", "country"} objects`);
      }
      entries.data?.forEach((entry, index) =>
        raw.push({
          where: `PROXY_POOL_FILE entry ${index + 1}`,
          input: typeof entry === 'string' ? { url: entry } : entry,
        }),
      );
    } else {
      file.text.split('\n').forEach((line, index) => {
        const content = line.replace(/(^|\s)#.*$/, '').trim();
        if (content === '') return;
        const { url, country, extra } = fromWords(content);
        if (extra) problems.push(`PROXY_POOL_FILE line ${index + 1}: more than a URL and a country`);
        else raw.push({ where: `PROXY_POOL_FILE line ${index + 1}`, input: { url, country } });
      });
    }
  }
  const parsed: EntryInput[] = [];
  for (const { where, input } of raw) {
    const result = EntryInput.safeParse(input);
    if (result.success) parsed.push(result.data);
    else problems.push(...result.error.issues.map((issue) => `${where}: ${issue.message}`));
  }
  if (problems.length > 0) throw new ProxyPoolConfigError(`Invalid proxy pool:\n  ${problems.join('\n  ')}`);

  const seen = new Map<string, number>();
  return parsed.map(({ url: text, country }) => {
    const url = new URL(text);
    const protocol = url.protocol.slice(0, -1) as ProxyEntry['protocol'];
    const hostPort = `${url.hostname}:${url.port === '' ? defaultPort(protocol) : url.port}`;
    const count = (seen.get(hostPort) ?? 0) + 1;
    seen.set(hostPort, count);
    return { id: count === 1 ? hostPort : `${hostPort}#${count}`, url: text, protocol, country };
  });
}
