import { cp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LAUNCH_CONFIG_FILE, type LaunchConfig } from '../../shared/protocol/launch-config';

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
