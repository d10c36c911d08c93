import { cp, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LAUNCH_CONFIG_FILE, LaunchConfig } from '../../../shared/protocol/launch-config';

/**
 * Copies the built extension into a launched browser's profile and writes its launch config
 * beside the manifest. The copy is the browser's alone (about 2 MB, a few milliseconds), so each
 * browser gets its own token, and the token is readable only by this user: the profile folder is
 * made with mkdtemp (0700) and the file is 0600. The extension id comes from the manifest's key,
 * so it is the same whatever folder the extension is loaded from.
 */
export async function stageLaunchedExtension({
  extensionDir,
  profileDir,
  launch,
}: {
  extensionDir: string;
  profileDir: string;
  launch: LaunchConfig;
}): Promise<string> {
  const staged = path.join(profileDir, 'tabhive-extension');
  await cp(extensionDir, staged, { recursive: true });
  await writeFile(path.join(staged, LAUNCH_CONFIG_FILE), JSON.stringify(launch), { mode: 0o600 });
  return staged;
}

/**
 * Rewrites a staged extension's launch config without its token, once the browser's first hello
 * has spent it: nothing that reads the profile later finds a credential there (the browser keeps
 * its session token in memory, extension/hub/hub-settings.ts). The new file is renamed into place,
 * so a worker that starts meanwhile reads the old config or the new one, never half of one.
 */
export async function forgetLaunchToken(stagedDir: string): Promise<void> {
  const file = path.join(stagedDir, LAUNCH_CONFIG_FILE);
  const config = LaunchConfig.parse(JSON.parse(await readFile(file, 'utf8')));
  delete config.token;
  const next = `${file}.next`;
  await writeFile(next, JSON.stringify(config), { mode: 0o600 });
  await rename(next, file);
}
