import { readFile } from 'node:fs/promises';

/** Where scripts/build-server.mjs writes the console's bundle (console/build-console.mjs). */
export const CONSOLE_OUT_DIR = new URL('../../../.output/console/', import.meta.url);

const ASSET_NAME = /^[a-z0-9-]+\.(js|css|js\.map|css\.map)$/;
const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
};

/** A built asset by file name, or undefined when there is no such file (or the console is not built). */
export async function readConsoleAsset(
  name: string,
  dir: URL = CONSOLE_OUT_DIR,
): Promise<{ body: Buffer; type: string } | undefined> {
  if (!ASSET_NAME.test(name)) return undefined;
  try {
    const body = await readFile(new URL(name, dir));
    return { body, type: TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}
