import { z } from 'zod';

/** Longest `url` accepted, in UTF-16 code units of the raw string (browsers cope with far more). */
export const MAX_URL_LENGTH = 8192;

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** A dotless `name:` not followed by a port number: a second scheme such as `http:` or `ftp:`. */
const LEADING_SCHEME = /^[a-z][a-z0-9+-]*:(?!\d)/i;

/**
 * A target URL as the client sent it (`raw`) and as Tabhive fetches it (`url`).
 *
 * Rules, in order (docs/wire-contract.md §1.5 with the Tabhive decision):
 * 1. at most MAX_URL_LENGTH characters;
 * 2. surrounding whitespace is ignored and `http://` is prepended unless the text starts with
 *    `<scheme>://` (`example.com` → `http://example.com/`);
 * 3. must parse with the WHATWG URL parser ("Invalid url"); `url` is its `href`, so the host is
 *    lower-cased and punycoded and an empty path becomes `/`;
 * 4. only `http:` and `https:` ("URL uses unsupported protocol");
 * 5. no user name or password. The browser would send them to the target, and they would be
 *    stored in `sourceURL`, the cache key, logs and webhook payloads. It also rejects
 *    `mailto:a@b.com`, which step 2 turns into user `mailto`, password `a`, host `b.com`.
 *    Credentials belong in `headers` (`Authorization`);
 * 6. what follows `<scheme>://` must not start with another scheme ("Invalid URL"):
 *    `http://http://x.com` and `http:/x.com` would otherwise request a host named `http`;
 * 7. must have a host, without empty labels: `http://\u200b.test/` parses to host `.test` (the
 *    parser drops the zero-width space), which no DNS server can answer ("URL must have a valid host").
 * No TLD or colon checks: `localhost:3000/docs`, `127.0.0.1:8080/page` and `http://[::1]:8080/`
 * are valid here; the server's URL policy decides whether private targets may be fetched.
 *
 * `raw` is what `metadata.sourceURL` reports; `url` is what is fetched, cached and compared.
 */
export const UrlInput = z
  .string()
  .max(MAX_URL_LENGTH, { error: `URL must be at most ${MAX_URL_LENGTH} characters` })
  .transform((raw, ctx) => {
    const result = normalizeUrl(raw);
    if (typeof result === 'string') return { raw, url: result };
    ctx.addIssue({ code: 'custom', message: result.error });
    return z.NEVER;
  });
export type UrlInput = z.infer<typeof UrlInput>;

function normalizeUrl(raw: string): string | { error: string } {
  const trimmed = raw.trim();
  const withScheme = HAS_SCHEME.test(trimmed) ? trimmed : `http://${trimmed}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return { error: 'Invalid url' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { error: 'URL uses unsupported protocol' };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { error: 'URL must not contain a user name or password; send credentials in headers' };
  }
  const afterScheme = withScheme.slice(withScheme.indexOf('://') + 3);
  if (LEADING_SCHEME.test(afterScheme)) return { error: 'Invalid URL' };
  if (parsed.hostname === '') return { error: 'URL must have a host' };
  if (parsed.hostname.startsWith('.') || parsed.hostname.includes('..'))
    return { error: 'URL must have a valid host' };
  return parsed.href;
}
