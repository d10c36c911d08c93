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
  token: z.string().min(1),
  browserClass: BrowserClass,
});
export type LaunchConfig = z.infer<typeof LaunchConfig>;
