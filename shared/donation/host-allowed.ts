/**
 * The domain rule of donated browsers, one implementation for the server (which routes tasks) and
 * the extension (which refuses them again): an entry `example.com` or `*.example.com` covers that
 * host and every subdomain of it. Entries and hosts compare lower-cased, without a trailing dot
 * and without a port; an entry is a host name only, never a URL or a pattern beyond `*.`.
 */
export function normalizeDomainEntry(entry: string): string {
  return entry.trim().toLowerCase().replace(/^\*\./, '').replace(/\.$/, '');
}

/** The entries as hosts the rule compares with; empty and duplicate entries dropped. */
export function normalizeDomainList(entries: readonly string[]): string[] {
  return [...new Set(entries.map(normalizeDomainEntry).filter((entry) => entry !== ''))];
}

export function hostAllowed(host: string, allowedDomains: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return allowedDomains.some((entry) => {
    const domain = normalizeDomainEntry(entry);
    return domain !== '' && (name === domain || name.endsWith(`.${domain}`));
  });
}

/** Whether a task URL may run under a donor's allowlist; URLs that do not parse never may. */
export function urlAllowed(url: string, allowedDomains: readonly string[]): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  // IPv6 literals come bracketed out of URL; entries are written without brackets.
  return hostAllowed(host.replace(/^\[(.*)\]$/, '$1'), allowedDomains);
}
