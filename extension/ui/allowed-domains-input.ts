/** A host name, optionally `*.`-prefixed: labels of letters, digits and hyphens (IDN as typed). */
const HOST_ENTRY =
  /^(?:\*\.)?(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)*[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.?$/u;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * Reads the options page's allowed-domains box: one entry per line (commas separate too). A pasted
 * URL counts as its host, since that is plainly what was meant; anything else that is not a host
 * name (a line with spaces in it, say) is returned in `invalid` for the page to point out instead
 * of saving.
 */
export function readAllowedDomains(text: string): { domains: string[]; invalid: string[] } {
  const domains: string[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[\n,]+/)) {
    const entry = raw.trim();
    if (entry === '') continue;
    const host = /^[a-z][a-z\d+.-]*:\/\//i.test(entry) ? hostOf(entry) : entry.toLowerCase();
    if (host !== undefined && (HOST_ENTRY.test(host) || IPV4.test(host))) {
      if (!domains.includes(host)) domains.push(host);
    } else {
      invalid.push(entry);
    }
  }
  return { domains, invalid };
}

function hostOf(url: string): string | undefined {
  try {
    const { hostname } = new URL(url);
    return hostname === '' ? undefined : hostname;
  } catch {
    return undefined;
  }
}
