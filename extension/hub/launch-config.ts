import { browser } from 'wxt/browser';
import { LAUNCH_CONFIG_FILE, LaunchConfig } from '../../shared/protocol/launch-config';

let cached: Promise<LaunchConfig | undefined> | undefined;

/**
 * The hub and launch token a server wrote into its copy of this extension before launching the
 * browser (server/browsers/launcher/stage-launched-extension.ts); undefined in every other install, a
 * person's own included. Nothing a web page does can write it, so nothing a page does can make a
 * browser serve another server. Read once per worker: the package does not change under it.
 */
export function readLaunchConfig(): Promise<LaunchConfig | undefined> {
  cached ??= fetch(browser.runtime.getURL(`/${LAUNCH_CONFIG_FILE}` as '/'))
    .then(async (response) => (response.ok ? LaunchConfig.safeParse(await response.json()) : undefined))
    .then((parsed) => (parsed?.success ? parsed.data : undefined))
    .catch(() => undefined);
  return cached;
}
