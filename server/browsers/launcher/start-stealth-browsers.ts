import type { Config } from '../../platform/config';
import { createLocalLauncher, type LocalLauncher } from './create-local-launcher';
import { findChrome } from './find-chrome';
import type { LaunchedBrowserSetup } from './launched-browser-setup';

/**
 * The launcher of stealth browsers: STEALTH_BROWSERS more launched browsers whose traffic goes
 * through STEALTH_PROXY_URL. Undefined (nothing to start) when no proxy is configured.
 */
export function startStealthBrowsers({
  config,
  chromePath,
  ...setup
}: LaunchedBrowserSetup & {
  config: Config;
  /** The pool's Chromium, when it has one; found here otherwise. */
  chromePath: string | undefined;
}): LocalLauncher | undefined {
  if (config.STEALTH_PROXY_URL === undefined || config.STEALTH_BROWSERS === 0) return undefined;
  const proxy = new URL(config.STEALTH_PROXY_URL);
  return createLocalLauncher({
    ...setup,
    count: config.STEALTH_BROWSERS,
    chromePath: chromePath ?? findChrome(config.CHROME_PATH),
    browserClass: 'stealth',
    // Chromium wants scheme://host:port, without a path.
    proxyServer: `${proxy.protocol}//${proxy.host}`,
  });
}
