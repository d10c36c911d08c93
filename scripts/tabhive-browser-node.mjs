#!/usr/bin/env node
// The `tabhive-browser-node` bin: runs the built browser node (.output/server/browser-node.mjs,
// made by scripts/build-server.mjs), which reads its flags from this process's arguments.
/* global process, console, URL */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BUILT = new URL('../.output/server/browser-node.mjs', import.meta.url);

if (!existsSync(fileURLToPath(BUILT))) {
  console.error(
    `The browser node is not built (${fileURLToPath(BUILT)} is missing).\n` +
      `Build it in ${fileURLToPath(new URL('..', import.meta.url))} with:\n` +
      '  npm run build && npm run build:server',
  );
  process.exit(1);
}
await import(BUILT.href);
