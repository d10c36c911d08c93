import { isIP } from 'node:net';
import type { LookupFn } from '../url-policy';

const FLAG = '--host-resolver-rules=';

/** Whether `host` matches a rule's pattern, where `*` stands for any run of characters. */
function matchesGlob(pattern: string, host: string): boolean {
  const [first = '', ...rest] = pattern.split('*');
  if (rest.length === 0) return host === first;
  if (!host.startsWith(first)) return false;
  const last = rest.pop() ?? '';
  let at = first.length;
  for (const part of rest) {
    const found = host.indexOf(part, at);
    if (found === -1) return false;
    at = found + part.length;
  }
  return host.length - last.length >= at && host.endsWith(last);
}

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
  const rules: Array<{ pattern: string; address: string | undefined }> = [];
  for (const entry of flags.flatMap((flag) => flag.slice(FLAG.length).split(','))) {
    const [verb, pattern, target] = entry.trim().split(/\s+/);
    if (verb?.toUpperCase() !== 'MAP' || pattern === undefined || target === undefined) continue;
    const host = target.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    rules.push({ pattern: pattern.toLowerCase(), address: isIP(host) === 0 ? undefined : host });
  }
  return async (hostname) => {
    const rule = rules.find(({ pattern }) => matchesGlob(pattern, hostname.toLowerCase()));
    if (rule === undefined) return fallback(hostname);
    if (rule.address === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    return [rule.address];
  };
}
