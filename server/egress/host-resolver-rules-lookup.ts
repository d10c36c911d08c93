import { isIP } from 'node:net';
import type { LookupFn } from '../url-policy/create-url-policy';

const FLAG = '--host-resolver-rules=';

/**
 * Tests give launched browsers DNS of their own with Chromium's --host-resolver-rules (a fixture
 * server under a public-looking name). A browser behind the egress proxy no longer resolves the
 * names it visits, the proxy does; so the proxy answers by the same rules (`MAP pattern address`,
 * `*` wildcards, `~NOTFOUND`) and asks `fallback` for the rest. Undefined without such a flag.
 */
export function hostResolverRulesLookup(
  chromeArgs: readonly string[],
  fallback: LookupFn,
): LookupFn | undefined {
  const flags = chromeArgs.filter((arg) => arg.startsWith(FLAG));
  if (flags.length === 0) return undefined;
  const rules: Array<{ pattern: RegExp; address: string | undefined }> = [];
  for (const entry of flags.flatMap((flag) => flag.slice(FLAG.length).split(','))) {
    const [verb, pattern, target] = entry.trim().split(/\s+/);
    if (verb?.toUpperCase() !== 'MAP' || pattern === undefined || target === undefined) continue;
    const glob = pattern
      .toLowerCase()
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replaceAll('*', '.*');
    const host = target.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    rules.push({ pattern: new RegExp(`^${glob}$`), address: isIP(host) === 0 ? undefined : host });
  }
  return async (hostname) => {
    const rule = rules.find(({ pattern }) => pattern.test(hostname.toLowerCase()));
    if (rule === undefined) return fallback(hostname);
    if (rule.address === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    return [rule.address];
  };
}
