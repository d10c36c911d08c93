import { browser, type Browser } from 'wxt/browser';
import {
  MAX_PROFILE_COOKIES,
  MAX_PROFILE_STATE_CHARS,
  ProfileCookie,
  ProfileOriginStorage,
  type BrowserProfileState,
  type TaskProfile,
} from '../../shared/protocol/browser-profile-state';
import type { CdpSession } from '../debugger/cdp-session';
import { callSource, evaluateIsolated } from '../debugger/evaluate-isolated';

/**
 * A browser profile in a launched browser (the v2 scrape option `profile`). The server runs a
 * profile's task alone in a browser it had wiped first (its state key is the task's own,
 * browser-state-keeper.ts), so the cookie jar holds exactly the profile's cookies while it runs,
 * and the next task, whoever's, finds the browser wiped again. A donated browser never runs one.
 *
 * Cookies go in and out through chrome.cookies, which needs no debugger; localStorage goes in
 * through the debugger (a script that runs before any of the page's own, capture-with-debugger.ts)
 * and comes out through scripting, for the origin the page ended on.
 */

/** chrome.cookies.set wants a URL the cookie would be sent to. */
function cookieUrl(cookie: ProfileCookie): string {
  const host = cookie.domain.replace(/^\./, '');
  const path = cookie.path.startsWith('/') ? cookie.path : '/';
  return `${cookie.secure ? 'https' : 'http'}://${host}${path}`;
}

/**
 * Puts the profile's cookies into the jar. A cookie Chromium refuses (an attribute it no longer
 * accepts) is left out rather than failing the scrape: the page then sees the profile without it.
 */
export async function loadProfileCookies(profile: TaskProfile): Promise<void> {
  await Promise.allSettled(
    profile.state.cookies.map((cookie) =>
      browser.cookies.set({
        url: cookieUrl(cookie),
        name: cookie.name,
        value: cookie.value,
        path: cookie.path.startsWith('/') ? cookie.path : '/',
        // Without `domain` Chromium makes a host-only cookie, as the site did.
        ...(cookie.hostOnly ? {} : { domain: cookie.domain }),
        secure: cookie.secure,
        httpOnly: cookie.httpOnly,
        sameSite: cookie.sameSite,
        ...(cookie.expirationDate === undefined ? {} : { expirationDate: cookie.expirationDate }),
      }),
    ),
  );
}

/** Runs in the page before its scripts: the profile's items for the document's origin. */
function seedLocalStorage(byOrigin: Record<string, Array<[string, string]>>): void {
  if (!Object.prototype.hasOwnProperty.call(byOrigin, location.origin)) return;
  try {
    for (const [key, value] of byOrigin[location.origin] ?? []) localStorage.setItem(key, value);
  } catch {
    // Storage refused (full, or disabled for the document): the page sees what there is.
  }
}

/** Whether the profile has localStorage to put in, which only the debugger can do in time. */
export const hasProfileStorage = (profile: TaskProfile | undefined) =>
  profile !== undefined && profile.state.localStorage.length > 0;

/**
 * Makes the task's first document start with the profile's localStorage for its origin, and
 * returns the function that stops it once that document has loaded: a later document of the task
 * (a link an action followed) must keep what the page itself wrote or removed.
 */
export async function seedProfileStorage(
  cdp: CdpSession,
  profile: TaskProfile | undefined,
): Promise<() => Promise<void>> {
  if (profile === undefined || !hasProfileStorage(profile)) return async () => undefined;
  const byOrigin = Object.fromEntries(
    profile.state.localStorage.map(({ origin, items }) => [
      origin,
      items.map(({ key, value }) => [key, value] as [string, string]),
    ]),
  );
  const { identifier } = await cdp.send<{ identifier: string }>('Page.addScriptToEvaluateOnNewDocument', {
    source: callSource(seedLocalStorage, byOrigin),
  });
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    await cdp.send('Page.removeScriptToEvaluateOnNewDocument', { identifier }).catch(() => undefined);
  };
}

const toProfileCookie = (cookie: Browser.cookies.Cookie) =>
  ProfileCookie.safeParse({
    name: cookie.name,
    value: cookie.value,
    domain: cookie.domain,
    path: cookie.path,
    hostOnly: cookie.hostOnly,
    secure: cookie.secure,
    httpOnly: cookie.httpOnly,
    sameSite: cookie.sameSite,
    ...(cookie.session || cookie.expirationDate === undefined
      ? {}
      : { expirationDate: cookie.expirationDate }),
  });

/** Runs in the page (an isolated world shares its origin's storage). */
function readLocalStorage(): { origin: string; items: Array<{ key: string; value: string }> } {
  // Reading document.cookie waits for the page's own cookie writes (`document.cookie = …` is sent
  // to the cookie store without waiting): the jar read after this sees a login a script just made.
  void document.cookie;
  const items: Array<{ key: string; value: string }> = [];
  for (let index = 0; index < localStorage.length; index += 1) {
    const key = localStorage.key(index);
    if (key !== null) items.push({ key, value: localStorage.getItem(key) ?? '' });
  }
  return { origin: location.origin, items };
}

/**
 * The localStorage of the origin the tab shows, or none when it cannot be read (a PDF, an error
 * page). Through the tab's debugger when given (`page`), in a world of its own: a browser session's
 * tab never gets the extension's content-script world, whose `chrome.storage` its relay could reach.
 */
async function originStorage(
  tabId: number,
  page: { cdp: CdpSession; frameId: string } | undefined,
): Promise<ProfileOriginStorage[]> {
  try {
    const read =
      page === undefined
        ? (await browser.scripting.executeScript({ target: { tabId }, func: readLocalStorage }))[0]?.result
        : (await evaluateIsolated(page.cdp, page.frameId, callSource(readLocalStorage))).value;
    const parsed = ProfileOriginStorage.safeParse(read);
    if (!parsed.success || !/^https?:\/\//.test(parsed.data.origin)) return [];
    // An origin too large to keep is left out, as if not read: the profile keeps its earlier
    // storage for it, and the cookies are saved all the same.
    if (JSON.stringify(parsed.data).length > MAX_PROFILE_STATE_CHARS) return [];
    return [parsed.data];
  } catch {
    return [];
  }
}

/**
 * The profile's state as the task leaves it: the whole jar (the browser holds no one else's
 * cookies while the task runs) and the localStorage of the origin the tab ended on.
 */
export async function readProfileState(
  tabId: number,
  page?: { cdp: CdpSession; frameId: string },
): Promise<BrowserProfileState> {
  // The page first: its read settles the cookie writes the page's scripts still had in flight.
  const localStorage = await originStorage(tabId, page);
  const cookies = (await browser.cookies.getAll({}))
    .map(toProfileCookie)
    .flatMap((parsed) => (parsed.success ? [parsed.data] : []))
    .slice(0, MAX_PROFILE_COOKIES);
  return { cookies, localStorage };
}
