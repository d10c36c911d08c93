import { z } from 'zod';
import { parsePrivateAllowList } from '../../../shared/url/private-allow-list';
import { LogFormatSetting, LogLevelSetting } from '../log';

/** `true`/`false`/`1`/`0`/`yes`/`no` in any case; anything else is a configuration error. */
const booleanFlag = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no']))
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const emptyAsUnset = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/**
 * The operating contract (docs/architecture.md#operating-contract): these names and defaults are fixed, because tests,
 * scripts and users depend on them. Parsed once in main.ts; everything else receives `Config`.
 */
export const Config = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * The address clients reach the API at, e.g. `https://scrape.example.com` behind a reverse
   * proxy (a path prefix is kept): the base of the absolute URLs responses carry (a job's `url`,
   * `next` pages, which SDKs follow with their API key). Unset: the address each connection
   * reached the server on. Never the request's Host header.
   */
  PUBLIC_URL: z.preprocess(
    emptyAsUnset,
    z
      .url({ protocol: /^https?$/ })
      .refine((url) => {
        // Refinements run after a failed url check too.
        const parsed = URL.parse(url);
        return parsed !== null && `${parsed.username}${parsed.password}${parsed.search}${parsed.hash}` === '';
      }, 'PUBLIC_URL must be a plain http(s) base URL: no credentials, query or fragment')
      .transform((url) => new URL(url).href.replace(/\/+$/, ''))
      .optional(),
  ),
  MONGODB_URL: z.preprocess(emptyAsUnset, z.string().min(1).optional()),
  DATA_DIR: z.string().min(1).default('./data'),
  BROWSERS: z.coerce.number().int().min(0).max(64).default(1),
  TABS_PER_BROWSER: z.coerce.number().int().min(1).max(64).default(4),
  CHROME_PATH: z.preprocess(emptyAsUnset, z.string().min(1).optional()),
  API_KEY: z.preprocess(emptyAsUnset, z.string().min(8, 'API_KEY must be at least 8 characters').optional()),
  /** Bearer key of the admin API (`/admin/v1/…`: teams, keys, allowances); unset turns that API off. */
  ADMIN_API_KEY: z.preprocess(
    emptyAsUnset,
    z.string().min(16, 'ADMIN_API_KEY must be at least 16 characters').optional(),
  ),
  /** Bearer token `GET /metrics` asks for; unset: /metrics answers without one, like /health. */
  METRICS_TOKEN: z.preprocess(
    emptyAsUnset,
    z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  ),
  /**
   * How long a donated browser's task that meets a challenge page waits for its person to pass
   * it, within the scrape's timeout (docs/donated-browsers.md). 0: no one is asked.
   */
  CHALLENGE_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
  /** Scrapes and crawl pages a team may run at once, unless the team has its own setting. */
  TEAM_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(10),
  /** API requests a team may make per minute, unless the team has its own setting; 0 = no limit. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(0),
  ALLOW_PRIVATE_NETWORKS: z.preprocess(emptyAsUnset, booleanFlag.optional()).default(false),
  /**
   * The narrow alternative to ALLOW_PRIVATE_NETWORKS: comma-separated host names (each with its
   * subdomains), IP addresses and CIDR ranges that scrapes, crawls and webhooks may reach although
   * they are private. Cloud metadata endpoints stay blocked whatever is listed.
   */
  ALLOWED_PRIVATE_HOSTS: z
    .string()
    .optional()
    .transform((value, context) => {
      const entries = (value ?? '').split(/[\s,]+/).filter((entry) => entry !== '');
      try {
        parsePrivateAllowList(entries);
      } catch (err) {
        context.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
      return entries;
    }),
  /**
   * Upstream proxy of stealth browsers (`proxy: "stealth"`): http://, https://, socks4:// or
   * socks5://host:port. Chromium's --proxy-server takes no credentials; put an authenticating
   * local forwarder in front of a proxy that needs them.
   */
  STEALTH_PROXY_URL: z.preprocess(
    emptyAsUnset,
    z
      .url({ protocol: /^(https?|socks[45])$/ })
      .refine((url) => !new URL(url).username, 'STEALTH_PROXY_URL cannot carry credentials')
      .optional(),
  ),
  /**
   * The proxy pool (docs/browser-control.md#proxy-pool): comma-separated `URL [COUNTRY]` items,
   * http://, https:// or socks5://, credentials allowed (never logged). Checked at start with
   * PROXY_POOL_FILE, whose entries join these.
   */
  PROXY_POOL: z.preprocess(emptyAsUnset, z.string().optional()),
  /** A file of pool proxies: one `URL [COUNTRY]` a line (`#` comments), or a JSON array. */
  PROXY_POOL_FILE: z.preprocess(emptyAsUnset, z.string().optional()),
  /**
   * `host:port` each health check tunnels to through every pool proxy (CONNECT, or a SOCKS5
   * connect), which also proves its credentials; unset: a TCP connection to the proxy.
   */
  PROXY_POOL_CHECK_TARGET: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .regex(/^[^\s:/]+:\d{1,5}$/, 'PROXY_POOL_CHECK_TARGET is host:port')
      .transform((target) => {
        const at = target.lastIndexOf(':');
        return { host: target.slice(0, at), port: Number(target.slice(at + 1)) };
      })
      .optional(),
  ),
  /** Seconds between two health checks of every pool proxy. */
  PROXY_POOL_CHECK_INTERVAL_SECONDS: z.preprocess(
    emptyAsUnset,
    z.coerce.number().int().min(1).max(86_400).default(30),
  ),
  /** How long a site keeps its pool proxy after its last use (a crawl's pages, a session's visits). */
  PROXY_POOL_STICKY_SECONDS: z.preprocess(
    emptyAsUnset,
    z.coerce.number().int().min(0).max(86_400).default(600),
  ),
  /**
   * How launched browsers show their windows: `virtual`, headful on an Xvfb display of the
   * server's own when Xvfb is installed (headless otherwise), so pages see a person's desktop
   * Chrome; `headless` always (docs/browser-control.md#bot-detection).
   */
  BROWSER_DISPLAY: z.preprocess(emptyAsUnset, z.enum(['virtual', 'headless']).default('virtual')),
  /** Stealth browsers to launch when STEALTH_PROXY_URL is set. */
  STEALTH_BROWSERS: z.coerce.number().int().min(0).max(64).default(1),
  /**
   * Browsers launched on demand for browser sessions, one per session, at most this many at once
   * (docs/browser-sessions.md); 0 runs sessions on the pool's browsers instead.
   */
  SESSION_BROWSERS: z.coerce.number().int().min(0).max(64).default(2),
  /**
   * Pages that need no browser (no actions, screenshot, emulation…, and HTML that does not depend
   * on JavaScript) are fetched over HTTP and derived on the server; false sends every page to a browser.
   */
  HTTP_FAST_PATH: z.preprocess(emptyAsUnset, booleanFlag.optional()).default(true),
  LLM_BASE_URL: z.preprocess(emptyAsUnset, z.url().optional()),
  LLM_API_KEY: z.preprocess(emptyAsUnset, z.string().optional()),
  LLM_MODEL: z.preprocess(emptyAsUnset, z.string().optional()),
  /**
   * Where /search finds results: `local` (the team's own index of scraped pages), `searxng`
   * (SEARXNG_URL's JSON API) or `browser` (SEARCH_ENGINE's result pages in the browser pool).
   * Unset: searxng when SEARXNG_URL is set, local otherwise.
   */
  SEARCH_PROVIDER: z.preprocess(emptyAsUnset, z.enum(['local', 'searxng', 'browser']).optional()),
  SEARXNG_URL: z.preprocess(emptyAsUnset, z.url({ protocol: /^https?$/ }).optional()),
  /**
   * The largest document `POST /v2/parse` takes, in bytes (default 50 MiB, Firecrawl's limit). The
   * body is refused with a 413 while it is read, never held beyond this.
   */
  PARSE_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(512 * 1024 * 1024)
    .default(50 * 1024 * 1024),
  /** The engine whose result pages browser search opens. */
  SEARCH_ENGINE: z.preprocess(emptyAsUnset, z.enum(['duckduckgo', 'bing', 'google']).default('duckduckgo')),
  /** Another origin serving the engine's result pages (a mirror, or a test fixture). */
  SEARCH_ENGINE_URL: z.preprocess(emptyAsUnset, z.url({ protocol: /^https?$/ }).optional()),
  /** The shortest gap between two runs of a monitor's schedule (`/v2/monitor`); shorter schedules are a 400. */
  MONITOR_MIN_INTERVAL_SECONDS: z.preprocess(
    emptyAsUnset,
    z.coerce.number().int().min(1).max(86_400).default(60),
  ),
  /**
   * The SMTP server monitor e-mail goes through: `smtp://user:password@host:587` (STARTTLS when the
   * server offers it) or `smtps://…:465`. Unset: monitors store e-mail settings and send nothing.
   */
  SMTP_URL: z.preprocess(emptyAsUnset, z.url({ protocol: /^smtps?$/ }).optional()),
  /** The From of monitor e-mail, e.g. `Tabhive <monitors@example.com>`; unset: `Tabhive <tabhive@localhost>`. */
  SMTP_FROM: z.preprocess(emptyAsUnset, z.string().min(3).max(320).optional()),
  /** `pretty` (the default) or `json` lines on stderr (log-settings.ts). */
  LOG_FORMAT: LogFormatSetting,
  /** debug, info (the default), warn or error. */
  LOG_LEVEL: LogLevelSetting,
});
export type Config = z.infer<typeof Config>;

export class ConfigError extends Error {}

/** Reads the configuration from an environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = Config.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  // The one rule across variables; kept here so the schema stays a plain object of fields.
  if (parsed.data.SEARCH_PROVIDER === 'searxng' && parsed.data.SEARXNG_URL === undefined) {
    throw new ConfigError('Invalid configuration:\n  SEARXNG_URL: SEARCH_PROVIDER=searxng needs SEARXNG_URL');
  }
  return parsed.data;
}
