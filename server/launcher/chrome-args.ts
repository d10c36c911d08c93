/**
 * Command line of a launched pool browser. Each flag is here for a reason measured on these
 * machines (extension.md, performance.md).
 */
export function chromeArgs({
  profileDir,
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
  /** Upstream proxy of a stealth browser; `hubHost` (host:port) always goes direct. */
  proxy?: { server: string; hubHost: string } | undefined;
  /** Tests only: e.g. --host-resolver-rules to give fixture servers public-looking names. */
  extraArgs?: readonly string[];
}): string[] {
  return [
    '--headless',
    // Chromium refuses to start its sandbox as root; elsewhere the sandbox stays on.
    ...(runningAsRoot ? ['--no-sandbox'] : []),
    '--disable-gpu',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--mute-audio',
    '--hide-scrollbars',
    // Headless Chromium's screen is 800×600 unless told otherwise, and it shrinks the 1920×1080 task
    // windows (task-window.ts) to fit, leaving pages an 800×457 viewport.
    '--screen-info={1920x1080}',
    // skipTlsVerification defaults to true in v2, and CDP's Security domain is closed to extensions,
    // so launched browsers accept any certificate; the extension refuses those documents itself
    // when a caller asks for verification (Chromium marks them `insecure`).
    '--ignore-certificate-errors',
    // A warm task tab goes from page to page; the back-forward cache would keep each previous page
    // alive (memory) only to destroy it later (browser CPU). Nothing here ever goes back.
    '--disable-back-forward-cache',
    // New headless creates a hidden omnibox renderer per window; these halve the CPU of window churn.
    '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
    `--user-data-dir=${profileDir}`,
    `--load-extension=${extensionDir}`,
    `--disable-extensions-except=${extensionDir}`,
    ...(proxy === undefined
      ? []
      : [
          `--proxy-server=${proxy.server}`,
          // <-loopback> undoes Chromium's implicit loopback bypass, so every page goes through the
          // proxy; the hub's own address is the one exception (the proxy need not reach it).
          `--proxy-bypass-list=<-loopback>;${proxy.hubHost}`,
        ]),
    ...extraArgs,
    startUrl,
  ];
}
