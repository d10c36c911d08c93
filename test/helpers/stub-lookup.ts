import type { LookupFn } from '../../server/platform/url-policy/create-url-policy';

/**
 * A resolver that answers from a table and records every name it was asked, so tests stay off the
 * network and can assert that IP literals never reach DNS. Unknown names fail like NXDOMAIN.
 */
export function stubLookup(records: Readonly<Record<string, readonly string[]>> = {}): {
  lookup: LookupFn;
  calls: string[];
} {
  const calls: string[] = [];
  const lookup: LookupFn = async (hostname) => {
    calls.push(hostname);
    const answers = records[hostname];
    if (answers === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    return answers;
  };
  return { lookup, calls };
}
