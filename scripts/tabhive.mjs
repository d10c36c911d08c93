#!/usr/bin/env node
// The `tabhive` bin (`npx tabhive …` in a checkout): runs the command line's TypeScript entry,
// server/api/cli/tabhive/main.ts, with the installed tsx (a production dependency), in this process.
/* global process, console, URL */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ENTRY = new URL('../server/api/cli/tabhive/main.ts', import.meta.url);

if (!existsSync(fileURLToPath(ENTRY))) {
  console.error(`The tabhive command line is missing (${fileURLToPath(ENTRY)}).`);
  process.exit(1);
}
const { register } = await import('tsx/esm/api');
register();
await import(ENTRY.href);
