import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createBrowserTokens } from '../../server/browsers/launch-tokens/browser-tokens';
import { silentLog } from '../../server/platform/log/log';
import { waitUntil } from './start-test-tabhive';

/**
 * What a launcher needs to launch a stand-in for Chromium in `dir`: an extension folder with a
 * manifest, and a script that writes its command line, one argument a line, and lives on. Its
 * hub is a port nothing listens on, so tests read how a browser would be launched, never a browser.
 */
export async function fakeChromeSetUp(dir: string) {
  const extensionDir = path.join(dir, 'extension');
  await mkdir(extensionDir, { recursive: true });
  await writeFile(path.join(extensionDir, 'manifest.json'), '{}');
  const chromePath = path.join(dir, 'fake-chrome.sh');
  await writeFile(
    chromePath,
    ['#!/bin/sh', `printf '%s\\n' "$@" > "${path.join(dir, 'args-$$.log')}"`, 'exec sleep 600'].join('\n'),
  );
  await chmod(chromePath, 0o755);
  return {
    chromePath,
    extensionDir,
    hubUrl: 'ws://127.0.0.1:9/browser-hub',
    tokens: createBrowserTokens(),
    log: silentLog,
  };
}

/** The command line the stand-in of fakeChromeSetUp with process id `pid` was launched with. */
export async function fakeChromeCommandLine(dir: string, pid: number): Promise<string[]> {
  const file = path.join(dir, `args-${pid}.log`);
  await waitUntil(async () => (await readFile(file, 'utf8').catch(() => '')).length > 0, 5_000, 'the args');
  return (await readFile(file, 'utf8')).trim().split('\n');
}

/** The value of `--name=value` on a command line, if it is there. */
export const commandLineFlag = (args: readonly string[], name: string) =>
  args.find((arg) => arg.startsWith(`${name}=`))?.slice(name.length + 1);
