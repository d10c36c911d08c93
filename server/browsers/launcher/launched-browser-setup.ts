import type { NetworkPolicy } from '../../../shared/url/network-policy';
import type { Config } from '../../platform/config';
import type { Log } from '../../platform/log';
import type { ProxyPool } from '../../platform/proxy-pool';
import type { LookupFn } from '../../platform/url-policy';

/**
 * What every browser the server launches is launched with, whichever launcher starts it (the
 * pool's, the stealth browsers' or a session's): the same extension, hub, tokens, egress policy and
 * watchdog, so that no kind of launched browser is held to less than the others.
 */
export interface LaunchedBrowserSetup {
  extensionDir: string;
  hubUrl: string;
  tokens: {
    issueLaunchToken(): string;
    revokeLaunchToken(token: string): void;
    /** Who spent a launch token; once one did, the token is removed from the browser's profile. */
    browserIdOf?(launchToken: string): string | undefined;
  };
  log: Log;
  /**
   * The server's network policy, which the browsers' egress proxy enforces. Absent, or allowing
   * private networks (nothing to refuse but metadata, which the extension's rules refuse): no proxy,
   * unless `proxyPool` (PROXY_POOL) is set, whose proxies the egress proxy forwards to.
   */
  egress?:
    { policy: NetworkPolicy; lookup?: LookupFn | undefined; proxyPool?: ProxyPool | undefined } | undefined;
  extraArgs?: readonly string[] | undefined;
  /** The launchers' watchdog: whether the browser that spent this launch token is connected to the hub now. */
  isConnected?: ((launchToken: string) => boolean) | undefined;
  disconnectedRelaunchMs?: number | undefined;
  /**
   * The Xvfb the browsers draw on (virtual-display.ts); null: headless. Undefined: found on the
   * usual paths, headless when there is none.
   */
  xvfbPath?: string | null | undefined;
}

/**
 * The set-up of a server's launched browsers: what it is given, with the egress policy taken from
 * the configuration, so that every launched browser may connect only where the server's URL
 * policy allows.
 */
export function launchedBrowserSetup<Tokens extends LaunchedBrowserSetup['tokens']>({
  config,
  lookup,
  proxyPool,
  ...setup
}: Omit<LaunchedBrowserSetup, 'egress' | 'tokens'> & {
  config: Config;
  /** PROXY_POOL's proxies, for every launched browser's traffic. */
  proxyPool?: ProxyPool | undefined;
  /** The hub's tokens, as they are: a session's browsers need to know who spent which. */
  tokens: Tokens;
  lookup?: LookupFn | undefined;
}): LaunchedBrowserSetup & { tokens: Tokens } {
  return {
    ...setup,
    ...(config.BROWSER_DISPLAY === 'headless' ? { xvfbPath: null } : {}),
    egress: {
      policy: {
        allowPrivateNetworks: config.ALLOW_PRIVATE_NETWORKS,
        allowedPrivateHosts: config.ALLOWED_PRIVATE_HOSTS,
      },
      lookup,
      proxyPool,
    },
  };
}
