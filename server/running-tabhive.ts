import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { BrowserHub } from './browsers/hub';
import type { BrowserTokens } from './browsers/launch-tokens';
import type { LocalLauncher } from './browsers/launcher';
import type { LiveSessionDirectory } from './products/browser-sessions';
import type { BrowserSlots } from './scrape/admit';
import type { JobRunner } from './products/jobs';
import type { Stores } from './platform/store';
import type { LookupFn } from './platform/url-policy';

/** What a start gives back: a running Tabhive, the handles tests reach for, and its stop. */
export interface RunningTabhive {
  /** Base URL of the API, e.g. http://127.0.0.1:3002 */
  url: string;
  hub: BrowserHub;
  stores: Stores;
  launcher: LocalLauncher | undefined;
  /** Launch tokens of this server's hub (tests launch a browser of their own with one). */
  browserTokens: BrowserTokens;
  jobRunner: JobRunner;
  /** The browser tabs the job runner's pages hold now, out of their share. */
  jobBrowserSlots: BrowserSlots;
  /** The running browser sessions, for the live view and the CDP relay. */
  liveSessions: LiveSessionDirectory;
  generatedApiKey: string | undefined;
  apiKeyFile: string | undefined;
  stop(): Promise<void>;
  killBrowsersNow(): void;
}

/** Options of a start that tests set; main.ts leaves them all unset. */
export interface StartOptions {
  extensionDir?: string;
  /** Tests only: extra command-line flags for launched browsers. */
  extraChromeArgs?: readonly string[];
  /** Tests only: the webhook retry schedule instead of 1, 5 and 15 minutes. */
  webhookRetryDelaysMs?: readonly number[];
  /** Tests only: DNS for the URL policy and the egress, so that public-looking names stay local. */
  lookup?: LookupFn;
  /** Tests only: how long a launched browser may stay disconnected before it is relaunched. */
  browserRelaunchMs?: number;
}

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
