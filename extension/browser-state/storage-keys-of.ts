/**
 * The sites a host may belong to, as Chromium names a top-level site (scheme and registrable
 * domain, no port). Without the public suffix list every suffix of two labels or more is a
 * candidate: clearing a storage key nobody used costs nothing.
 */
function siteCandidates(top: URL): string[] {
  const host = top.hostname;
  const labels = host.split('.');
  const single = host.startsWith('[') || /^\d+(\.\d+){3}$/.test(host) || labels.length < 2;
  if (single) return [`${top.protocol}//${host}`];
  const sites: string[] = [];
  for (let start = 0; start <= labels.length - 2; start += 1) {
    sites.push(`${top.protocol}//${labels.slice(start).join('.')}`);
  }
  return sites;
}

const webOrigin = (url: string): URL | undefined => {
  try {
    const parsed = new URL(url);
    // blob: URLs belong to the origin inside them; opaque documents (data:, about:) hold no storage.
    const inner = parsed.protocol === 'blob:' ? new URL(parsed.pathname) : parsed;
    return inner.protocol === 'http:' || inner.protocol === 'https:' ? inner : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The storage keys (Chromium's serialisation, as CDP's Storage.clearDataForStorageKey takes them)
 * a document at `frameUrl` may have written under, in a tab whose top-level page is `topUrl`: its
 * origin's own key, and for a frame of another site the partitioned keys `origin/^0<site>`.
 */
export function storageKeysOf(frameUrl: string, topUrl: string | undefined): string[] {
  const frame = webOrigin(frameUrl);
  if (frame === undefined) return [];
  const own = `${frame.origin}/`;
  const top = topUrl === undefined ? undefined : webOrigin(topUrl);
  if (top === undefined || top.origin === frame.origin) return [own];
  return [own, ...siteCandidates(top).map((site) => `${frame.origin}/^0${site}`)];
}
