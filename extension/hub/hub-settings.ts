import { z } from 'zod';
import { browser } from 'wxt/browser';
import { storage } from 'wxt/utils/storage';
import { BrowserClass } from '../../shared/protocol/messages';
import { readLaunchConfig } from './launch-config';

/**
 * Where this browser's hub is and how it proves who it is. A launched browser's come from the
 * launch config its server packaged with it (launch-config.ts), with the session token of its
 * last `welcome` in place of the spent launch token; a donated browser's from pairing.
 */
export const HubSettings = z.object({
  serverUrl: z.url({ protocol: /^wss?$/ }),
  token: z.string().min(1),
  /** How the browser joined: launched by a server, or paired by a person. */
  origin: z.enum(['launched', 'paired']),
  /** What the server launched it as (a stealth browser has an upstream proxy); basic when absent. */
  browserClass: BrowserClass.optional(),
  /** Paired browsers: the server's http(s) base URL as the person entered it. */
  serverBaseUrl: z.string().optional(),
  /** Paired browsers: the team they serve, and their id in its browser list. */
  team: z.object({ id: z.string(), name: z.string() }).optional(),
  browserId: z.string().optional(),
});
export type HubSettings = z.infer<typeof HubSettings>;

/** A pairing: only extension pages write it (ui-request-handler.ts). Stored unparsed: storage is an edge. */
export const hubSettingsItem = storage.defineItem<unknown>('local:hub', { fallback: null });

/**
 * A launched browser's session token, with the hub it belongs to. Only the worker writes it, once
 * per `welcome`; the launch token itself is never stored, so no late write can put a spent token
 * back in place of a live one. It lives in session storage: in the browser's memory, never in the
 * profile's files, and it outlives worker restarts but not the browser, which a server relaunches
 * with a new launch token anyway.
 */
const LaunchSession = z.object({ serverUrl: z.string(), token: z.string().min(1) });
const launchSessionItem = storage.defineItem<unknown>('session:launchSession', { fallback: null });

let storageGuarded: Promise<void> | undefined;

/**
 * Makes the areas that hold hub credentials (a device token in local, a session token in session)
 * readable by the extension's own pages and worker only, not by the content-script worlds its
 * tasks create in pages, where a page or a CDP client could reach them (docs/security.md). No
 * content script of the extension uses storage. Every read and write of credentials waits for it,
 * so none is stored before the area is closed. Once per worker: the level is the browser's, and
 * setting it again is harmless.
 */
export function guardCredentialStorage(): Promise<void> {
  storageGuarded ??= Promise.all(
    [browser.storage.local, browser.storage.session].map((area) =>
      area.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' }),
    ),
  ).then(() => undefined);
  return storageGuarded;
}

export async function readHubSettings(): Promise<HubSettings | undefined> {
  await guardCredentialStorage();
  const launch = await readLaunchConfig();
  if (launch !== undefined) {
    const session = LaunchSession.safeParse(await launchSessionItem.getValue());
    // The launch token is gone from the config once spent (the launcher removes it).
    const token =
      session.success && session.data.serverUrl === launch.serverUrl ? session.data.token : launch.token;
    if (token === undefined) return undefined;
    return { serverUrl: launch.serverUrl, token, origin: 'launched', browserClass: launch.browserClass };
  }
  // Only a person pairs a browser that no server launched; whatever else storage holds is ignored.
  const parsed = HubSettings.safeParse(await hubSettingsItem.getValue());
  return parsed.success && parsed.data.origin === 'paired' ? parsed.data : undefined;
}

/** Whether this browser was launched by a server (and so can never be paired). */
export async function isLaunchedBrowser(): Promise<boolean> {
  return (await readLaunchConfig()) !== undefined;
}

export async function writeHubSettings(settings: HubSettings & { origin: 'paired' }): Promise<void> {
  await guardCredentialStorage();
  await hubSettingsItem.setValue(HubSettings.parse(settings));
}

/** Keeps the session token a `welcome` handed out, in place of the token that was just spent. */
export async function saveSessionToken(token: string): Promise<void> {
  await guardCredentialStorage();
  const launch = await readLaunchConfig();
  if (launch !== undefined) {
    await launchSessionItem.setValue({ serverUrl: launch.serverUrl, token });
    return;
  }
  const settings = await readHubSettings();
  if (settings !== undefined && settings.token !== token)
    await writeHubSettings({ ...settings, origin: 'paired', token });
}

export async function clearHubSettings(): Promise<void> {
  await hubSettingsItem.setValue(null);
}

let cached: Promise<HubSettings | undefined> | undefined;

/**
 * The settings as last read, for what every task asks (how the browser joined, its class): a
 * storage read per task cost more than the answer is worth, and what tasks ask of them changes
 * only when a person pairs again, which the watch below catches. Connection logic reads storage.
 */
export function cachedHubSettings(): Promise<HubSettings | undefined> {
  if (cached === undefined) {
    cached = readHubSettings();
    hubSettingsItem.watch(() => {
      cached = readHubSettings();
    });
  }
  return cached;
}
