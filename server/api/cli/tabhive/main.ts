import { readFileSync } from 'node:fs';
import { CommanderError } from 'commander';
import { keysErrorMessage } from '../keys/keys-error-message';
import { createProgram } from './create-program';
import { ApiFailure, exitCodeOf, JobFailed, PagesFailed, ServerUnreachable } from './exit-codes';
import { invokedAs } from './invoked-as';

// `tabhive …` (npx tabhive, npm run tabhive --, scripts/tabhive.mjs): runs one command and exits
// with the code `tabhive --help` documents.

const { version } = JSON.parse(
  readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'),
) as {
  version: string;
};

/** The API's details (zod issues) as `path: message` lines. */
function detailLines(details: unknown): string[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((issue: unknown) => {
    const { path, message } = (issue ?? {}) as { path?: unknown; message?: unknown };
    if (typeof message !== 'string') return [];
    return [`  ${Array.isArray(path) && path.length > 0 ? `${path.join('.')}: ` : ''}${message}`];
  });
}

function report(err: unknown) {
  if (err instanceof CommanderError) return; // commander printed it
  if (err instanceof ApiFailure) {
    console.error(
      `tabhive: ${err.message} (HTTP ${err.status}${err.code === undefined ? '' : `, ${err.code}`})`,
    );
    for (const line of detailLines(err.details)) console.error(line);
    if (err.hint !== undefined) console.error(err.hint);
    return;
  }
  if (err instanceof ServerUnreachable || err instanceof JobFailed || err instanceof PagesFailed)
    return console.error(`tabhive: ${err.message}`);
  const known = keysErrorMessage(err);
  if (known !== undefined) return console.error(`tabhive: ${known}`);
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
}

try {
  await createProgram(version, invokedAs()).parseAsync(process.argv.slice(2), { from: 'user' });
  process.exit(0);
} catch (err) {
  report(err);
  process.exit(exitCodeOf(err));
}
