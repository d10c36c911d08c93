import { readFileSync } from 'node:fs';
import { type ProxyEntry, ProxyPoolConfigError, parseProxyPool } from './parse-proxy-pool';

/**
 * The pool's entries from PROXY_POOL and PROXY_POOL_FILE (read once, at start), or an empty list
 * when neither is set. Throws ProxyPoolConfigError, which names no credentials.
 */
export function loadProxyPool({
  list,
  filePath,
}: {
  list?: string | undefined;
  filePath?: string | undefined;
}): ProxyEntry[] {
  let file: { path: string; text: string } | undefined;
  if (filePath !== undefined) {
    try {
      file = { path: filePath, text: readFileSync(filePath, 'utf8') };
    } catch (err) {
      throw new ProxyPoolConfigError(
        `Invalid proxy pool:\n  PROXY_POOL_FILE ${filePath}: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  return parseProxyPool({ list, file });
}
