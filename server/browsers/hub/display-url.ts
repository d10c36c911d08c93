/**
 * A task's URL as operators may see it: scheme, host and path only. Queries and fragments carry
 * tokens and search terms, userinfo carries passwords; none of them belongs on a status page.
 */
export function displayUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(not a URL)';
  }
  if (parsed.protocol === 'data:') return 'data:…';
  if (parsed.host === '') return `${parsed.protocol}${parsed.pathname}`;
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}
