import { z } from 'zod';
import { storage } from 'wxt/utils/storage';
import { BrowserClass } from '../../shared/protocol/messages';

/**
 * Where this browser's hub is and how it proves who it is. Written by the launch page (local
 * pool) or by pairing (donated browsers); the worker replaces a launch token with the session
 * token from `welcome`, since launch tokens work once.
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

/** Stored unparsed: storage is an edge, and what comes back is parsed like any other input. */
export const hubSettingsItem = storage.defineItem<unknown>('local:hub', { fallback: null });

export async function readHubSettings(): Promise<HubSettings | undefined> {
  const parsed = HubSettings.safeParse(await hubSettingsItem.getValue());
  return parsed.success ? parsed.data : undefined;
}

export async function writeHubSettings(settings: HubSettings): Promise<void> {
  await hubSettingsItem.setValue(HubSettings.parse(settings));
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
