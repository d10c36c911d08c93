import { displayArgs, type LaunchDisplay } from './person-browser-args';

/**
 * The HTTP cache of a launched browser's throwaway profile, in bytes. Chromium sizes it from the
 * free disk space otherwise, and the profile lives in the temporary folder, which may be memory
 * (tmpfs); a long crawl would fill it with pages and assets it seldom reads again.
 */
export const DISK_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Chromium features launched browsers run without. One `--disable-features` switch only: Chromium
 * reads the last one given and ignores the others.
 */
export const DISABLED_FEATURES = [
  // New headless creates a hidden omnibox renderer per window; these halve the CPU of window churn.
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'WebUIOmniboxFullPopup',
  // A spare renderer started ahead of the next navigation that needs a new process: a process of
  // about 70 MB that warm task tabs, which keep theirs, seldom use.
  'SpareRendererForSitePerProcess',
];

/**
 * Flags that shape a launched pool browser as a scraping profile: memory and background
 * throttling. Only launched browsers get them: a donated browser is a person's own Chrome, which
 * Tabhive never starts and whose settings it leaves alone.
 */
export const SCRAPING_PROFILE_ARGS = [
  // Site isolation gives every site a renderer process of its own, cross-site frames included: a
  // page with six embeds from other sites ran in 9 renderers (1.1 GB resident) rather than 2 (0.3
  // GB). The trade-off, and why a scraping profile may make it, is in docs/configuration.md. Task tabs keep a
  // renderer each: with --renderer-process-limit they shared one, and a page stuck in a script loop
  // then stalled every other tab of the browser until it was restarted.
  '--disable-site-isolation-trials',
  // The display compositor (software only: --disable-gpu or --disable-gpu-compositing) and WebGL's
  // software GL run on a thread of the browser process instead of in a GPU process of its own.
  '--in-process-gpu',
  `--disk-cache-size=${DISK_CACHE_BYTES}`,
  // Task windows are never focused and may cover each other: Chromium would otherwise slow their
  // timers to once a second, lower their renderers' priority and stop drawing windows it takes for
  // hidden, and a page that renders from a timer would be captured half-done.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

/**
 * What a browser whose DevTools are on file descriptors 3 and 4 (a browser node's) is launched
 * with. `--remote-debugging-pipe` alone sets `navigator.webdriver` to true, which BotD reads as a
 * headless bot; turning Blink's AutomationControlled feature off keeps it false, with its getter
 * native (docs/browser-control.md#bot-detection).
 */
export const REMOTE_DEBUGGING_PIPE_ARGS = [
  '--remote-debugging-pipe',
  '--disable-blink-features=AutomationControlled',
] as const;

/**
 * Command line of a launched pool browser. Each flag is here for a reason measured on these
 * machines (docs/extension.md#screenshots, BENCHMARKS.md#measured-facts). `display` says whether
 * it runs headless or on the launcher's virtual display (person-browser-args.ts).
 */
export function chromeArgs({
  profileDir,
  display = { kind: 'headless' },
  extensionDir,
  startUrl,
  runningAsRoot,
  proxy,
  extraArgs = [],
}: {
  profileDir: string;
  extensionDir: string;
  startUrl: string;
  runningAsRoot: boolean;
  display?: LaunchDisplay;
  /**
   * The proxy every request goes through: the egress proxy, or a stealth browser's upstream
   * proxy. `hubHost` (host:port) alone goes direct.
   */
  proxy?: { server: string; hubHost: string } | undefined;
  /** Tests only: e.g. --host-resolver-rules to give fixture servers public-looking names. */
  extraArgs?: readonly string[];
}): string[] {
  return [
    ...displayArgs(display),
    // Chromium refuses to start its sandbox as root; elsewhere the sandbox stays on.
    ...(runningAsRoot ? ['--no-sandbox'] : []),
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--mute-audio',
    '--hide-scrollbars',
    // skipTlsVerification defaults to true in v2, and CDP's Security domain is closed to extensions,
    // so launched browsers accept any certificate; the extension refuses those documents itself
    // when a caller asks for verification (Chromium marks them `insecure`).
    '--ignore-certificate-errors',
    // A warm task tab goes from page to page; the back-forward cache would keep each previous page
    // alive (memory) only to destroy it later (browser CPU). Nothing here ever goes back.
    '--disable-back-forward-cache',
    // WebRTC may use no UDP, and its TCP (TURN over TCP) goes through the browser's proxy: with the
    // egress proxy (server/platform/browser-egress/start-browser-egress-proxy.ts) a TURN server on a private address
    // is refused like any other connection there, whatever world of the page made the peer connection.
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    `--disable-features=${DISABLED_FEATURES.join(',')}`,
    ...SCRAPING_PROFILE_ARGS,
    `--user-data-dir=${profileDir}`,
    `--load-extension=${extensionDir}`,
    `--disable-extensions-except=${extensionDir}`,
    ...(proxy === undefined
      ? []
      : [
          `--proxy-server=${proxy.server}`,
          // <-loopback> undoes Chromium's implicit loopback bypass, so every page goes through the
          // proxy, loopback literals included; the hub's own address is the one exception (the
          // proxy would refuse it), and pages cannot reach it there either (the address rules).
          `--proxy-bypass-list=<-loopback>;${proxy.hubHost}`,
        ]),
    ...extraArgs,
    startUrl,
  ];
}
