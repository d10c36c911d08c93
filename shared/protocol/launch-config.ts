import { z } from 'zod';
import { BrowserClass } from './messages';

/**
 * File a server writes into its own copy of the extension before it launches a browser: the hub
 * to serve and the one-time launch token. It travels where no web page can reach (the extension's
 * package, which pages can neither write nor read, since nothing in it is web-accessible), so a
 * page can never change which server a browser serves, and the token is off the command line.
 */
export const LAUNCH_CONFIG_FILE = 'launch.json';

export const LaunchConfig = z.object({
  serverUrl: z.url({ protocol: /^wss?$/ }),
  /**
   * Absent once the browser's first hello spent it: the launcher then rewrites the file without
   * it, and the browser reconnects with the session token it keeps in memory (docs/security.md).
   */
  token: z.string().min(1).optional(),
  browserClass: BrowserClass,
  /**
   * Every request of the browser goes through the server's egress proxy, which refuses what the
   * URL policy refuses: the addresses responses report are the proxy's (task-address-guard.ts).
   */
  egressProxy: z.boolean().optional(),
});
export type LaunchConfig = z.infer<typeof LaunchConfig>;
