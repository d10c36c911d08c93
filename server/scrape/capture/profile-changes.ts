import type {
  BrowserProfileState,
  ProfileCookie,
  ProfileOriginStorage,
} from '../../../shared/protocol/browser-profile-state';

/**
 * What one scrape did to a browser profile: the difference between the state it loaded and the
 * state its browser held after the page. Saving applies this difference to the profile as it is
 * by then, so scrapes of one profile that overlap keep each other's changes (a login made by one
 * is not undone by another that started before it); where two changed the same cookie or key,
 * the one saved last wins.
 */
export interface ProfileChanges {
  setCookies: ProfileCookie[];
  /** cookieKey()s of cookies the page removed (or that expired meanwhile). */
  removedCookies: string[];
  setItems: Array<{ origin: string; key: string; value: string }>;
  removedItems: Array<{ origin: string; key: string }>;
}

/** A cookie's identity in a jar: the same name, domain and path is the same cookie. */
export const cookieKey = (cookie: Pick<ProfileCookie, 'name' | 'domain' | 'path'>) =>
  `${cookie.name}\n${cookie.domain}\n${cookie.path}`;

const sameCookie = (a: ProfileCookie, b: ProfileCookie) =>
  a.value === b.value &&
  a.secure === b.secure &&
  a.httpOnly === b.httpOnly &&
  a.sameSite === b.sameSite &&
  a.hostOnly === b.hostOnly &&
  // chrome.cookies hands back the expiry it was given, give or take a fraction of a second.
  Math.trunc(a.expirationDate ?? -1) === Math.trunc(b.expirationDate ?? -1);

const itemsOf = (storage: readonly ProfileOriginStorage[]) =>
  new Map(storage.map(({ origin, items }) => [origin, new Map(items.map(({ key, value }) => [key, value]))]));

export const isUnchanged = (changes: ProfileChanges) =>
  changes.setCookies.length === 0 &&
  changes.removedCookies.length === 0 &&
  changes.setItems.length === 0 &&
  changes.removedItems.length === 0;

/**
 * The changes from `before` to `after`. The browser reads back the whole jar but localStorage
 * only of the origin the page ended on: origins missing from `after` are left as they were.
 */
export function profileChanges(before: BrowserProfileState, after: BrowserProfileState): ProfileChanges {
  const beforeCookies = new Map(before.cookies.map((cookie) => [cookieKey(cookie), cookie]));
  const afterKeys = new Set(after.cookies.map(cookieKey));
  const setCookies = after.cookies.filter((cookie) => {
    const earlier = beforeCookies.get(cookieKey(cookie));
    return earlier === undefined || !sameCookie(earlier, cookie);
  });
  const removedCookies = [...beforeCookies.keys()].filter((key) => !afterKeys.has(key));

  const beforeItems = itemsOf(before.localStorage);
  const setItems: ProfileChanges['setItems'] = [];
  const removedItems: ProfileChanges['removedItems'] = [];
  for (const [origin, items] of itemsOf(after.localStorage)) {
    const earlier = beforeItems.get(origin) ?? new Map<string, string>();
    for (const [key, value] of items) {
      if (earlier.get(key) !== value) setItems.push({ origin, key, value });
    }
    for (const key of earlier.keys()) if (!items.has(key)) removedItems.push({ origin, key });
  }
  return { setCookies, removedCookies, setItems, removedItems };
}

/**
 * `state` with `changes` applied, less the cookies that have expired by `nowMs` (a jar forgets
 * them too). Cookies and origins keep their order; new ones come last.
 */
export function applyProfileChanges(
  state: BrowserProfileState,
  changes: ProfileChanges,
  nowMs = Date.now(),
): BrowserProfileState {
  const cookies = new Map(state.cookies.map((cookie) => [cookieKey(cookie), cookie]));
  for (const key of changes.removedCookies) cookies.delete(key);
  for (const cookie of changes.setCookies) cookies.set(cookieKey(cookie), cookie);

  const storage = itemsOf(state.localStorage);
  for (const { origin, key } of changes.removedItems) storage.get(origin)?.delete(key);
  for (const { origin, key, value } of changes.setItems) {
    const items = storage.get(origin) ?? new Map<string, string>();
    storage.set(origin, items.set(key, value));
  }
  return {
    cookies: [...cookies.values()].filter(
      (cookie) => cookie.expirationDate === undefined || cookie.expirationDate * 1000 > nowMs,
    ),
    localStorage: [...storage]
      .filter(([, items]) => items.size > 0)
      .map(([origin, items]) => ({ origin, items: [...items].map(([key, value]) => ({ key, value })) })),
  };
}
