/**
 * Command line of a launched pool browser. Each flag is here for a reason measured on these
 * machines (extension.md, performance.md).
 */
export function chromeArgs({
  profileDir,
  extensionDir,
  startUrl,
  runningAsRoot,
}: {
  profileDir: string;
  extensionDir: string;
  startUrl: string;
  runningAsRoot: boolean;
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
    // New headless creates a hidden omnibox renderer per window; these halve the CPU of window churn.
    '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
    `--user-data-dir=${profileDir}`,
    `--load-extension=${extensionDir}`,
    `--disable-extensions-except=${extensionDir}`,
    startUrl,
  ];
}
