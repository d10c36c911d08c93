import type { Server } from 'node:http';
import type { BrowserHub, BrowserTokens, LocalLauncher, SessionBrowsers } from './browsers';
import {
  DEFAULT_TEAM,
  writeWebhookSecret,
  type Config,
  type Lifecycle,
  type Log,
  type ProxyPool,
} from './platform';
import type { RequestHandler, RunningTabhive, StartOptions, UpgradeHandler } from './running-tabhive';
import { composeApi } from './compose/compose-api';
import { composeBrowsers } from './compose/compose-browsers';
import { composePlatform } from './compose/compose-platform';
import { composeProducts } from './compose/compose-products';
import { composeScrape } from './compose/compose-scrape';

/**
 * The store, the hub and the API, served on the listening server once composed: the part of a
 * start that startTabhive loads only once the browsers are launched (it holds nearly all of the
 * server's code and dependencies, whose loading would otherwise come first).
 *
 * Wing by wing, each on the ones below it (docs/architecture.md): the platform, the browsers, the
 * scraper, the products, the API. What each part makes registers its start and close with the
 * lifecycle, so a stop closes the API's sockets first and the database last.
 */
export async function composeTabhive({
  config,
  server,
  log,
  lifecycle,
  tokens,
  launcher,
  stealthLauncher,
  sessionBrowsers,
  proxyPool,
  url,
  serve,
  webhookRetryDelaysMs,
  lookup,
}: Omit<StartOptions, 'extensionDir' | 'extraChromeArgs' | 'browserRelaunchMs'> & {
  config: Config;
  server: Server;
  log: Log;
  /** Where each component registers its start and close as it is made. */
  lifecycle: Lifecycle;
  tokens: BrowserTokens;
  launcher: LocalLauncher | undefined;
  stealthLauncher: LocalLauncher | undefined;
  /** Browsers launched for one browser session each; undefined when none are launched here. */
  sessionBrowsers?: SessionBrowsers | undefined;
  /** PROXY_POOL's proxies, already started: the egress and the page tasks go through them. */
  proxyPool?: ProxyPool | undefined;
  url: string;
  serve(hub: BrowserHub, handleRequest: RequestHandler, handleUpgrade: UpgradeHandler): void;
}): Promise<RunningTabhive> {
  const platform = await composePlatform({ config, log, lifecycle, lookup, proxyPool });
  const browsers = composeBrowsers({ config, log, lifecycle, server, tokens, sessionBrowsers, platform });
  const scrape = composeScrape({ config, log, lifecycle, platform, browsers });
  const products = composeProducts({
    config,
    serverUrl: url,
    log,
    lifecycle,
    sessionBrowsers,
    webhookRetryDelaysMs,
    platform,
    browsers,
    scrape,
  });
  const { handleRequest, handleUpgrade } = composeApi({
    config,
    log,
    lifecycle,
    platform,
    browsers,
    scrape,
    products,
  });
  serve(browsers.hub, handleRequest, handleUpgrade);

  const { defaultKey, stores } = platform;
  // The default team and its webhook secret exist before the first job; a database that is down
  // now only delays them (jobs create their team, the sender makes the secret on first use).
  await stores.teams
    .ensure({ id: DEFAULT_TEAM.id, name: DEFAULT_TEAM.name })
    .then(() => stores.apiKeys.setConfigured({ apiKey: defaultKey.apiKey, teamId: DEFAULT_TEAM.id }))
    .then(() => stores.teams.webhookSecret(DEFAULT_TEAM.id))
    .then((secret) => (secret === undefined ? undefined : writeWebhookSecret(config.DATA_DIR, secret)))
    .catch((err: unknown) => log.warn('could not prepare the default team', { error: String(err) }));
  lifecycle.start();
  return {
    url,
    hub: browsers.hub,
    stores,
    launcher,
    browserTokens: tokens,
    jobRunner: products.jobRunner,
    jobBrowserSlots: scrape.jobBrowserSlots,
    liveSessions: products.liveSessions,
    generatedApiKey: defaultKey.generated ? defaultKey.apiKey : undefined,
    apiKeyFile: defaultKey.file,
    stop: () => lifecycle.close(),
    killBrowsersNow: () => {
      launcher?.killNow();
      stealthLauncher?.killNow();
      sessionBrowsers?.killNow();
    },
  };
}
