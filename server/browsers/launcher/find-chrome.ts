import { accessSync, constants } from 'node:fs';

/**
 * Real binaries first: Debian's /usr/bin/chromium is a shell wrapper that adds flags of its own
 * and gets in the way of signal handling, so its target /usr/lib/chromium/chromium comes first.
 */
export const CHROME_CANDIDATES = [
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome-for-testing',
  '/opt/google/chrome-for-testing/chrome',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
] as const;

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * The Chromium to launch: CHROME_PATH when given (it must exist), otherwise the first usual
 * install path that does. Branded Chrome ≥ 137 ignores --load-extension, so it is listed last
 * and only helps for donated-browser setups, not for the local pool.
 */
export function findChrome(
  configured: string | undefined,
  candidates: readonly string[] = CHROME_CANDIDATES,
) {
  if (configured !== undefined) {
    if (!isExecutable(configured)) throw new Error(`CHROME_PATH ${configured} is not an executable file`);
    return configured;
  }
  const found = candidates.find(isExecutable);
  if (found === undefined) {
    throw new Error(
      'No Chromium found. Install it (Debian/Ubuntu: apt-get install chromium) or set CHROME_PATH, ' +
        'or set BROWSERS=0 to run with donated browsers only.',
    );
  }
  return found;
}
