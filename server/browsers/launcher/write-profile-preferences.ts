import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Preferences a launched browser's fresh profile starts with. Network prediction off (2 = never,
 * the "Preload pages" setting): Chromium otherwise opens a TCP connection to where a page is
 * about to navigate (a meta refresh, `location = …`) before the request exists, so the task tab's
 * DNR rules never see it and a private address gets a connection, if no bytes.
 */
export async function writeProfilePreferences(profileDir: string): Promise<void> {
  const preferences = { net: { network_prediction_options: 2 } };
  await mkdir(path.join(profileDir, 'Default'), { recursive: true });
  await writeFile(path.join(profileDir, 'Default', 'Preferences'), JSON.stringify(preferences));
}
