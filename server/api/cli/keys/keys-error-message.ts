import { ConfigError } from '../../../platform/config';
import { DirectoryLockedError } from '../../../platform/store';
import { TeamAdminError } from '../../../platform/teams';
import { UsageError } from '../usage-error';
import { AdminApiError } from './keys-admin-api';

/**
 * What a keys command says when it fails for a reason the operator can act on (a team that exists
 * already, a store held by a running server, an admin API that refused, bad settings); undefined
 * for a bug, whose stack the caller prints.
 */
export function keysErrorMessage(err: unknown): string | undefined {
  if (err instanceof UsageError) return `${err.message} (see --help)`;
  if (err instanceof DirectoryLockedError)
    return [
      `the embedded store in ${err.dir} is in use by process ${err.pid} (a running Tabhive server?), which holds it for itself.`,
      'Either stop that server and run this command again, or manage keys through the running server:',
      '  start it with ADMIN_API_KEY=<a secret of your choice>, then run this command with the same',
      "  ADMIN_API_KEY set: it goes through the server's admin API (/admin/v1, docs/teams-and-credits.md).",
    ].join('\n');
  if (err instanceof TeamAdminError || err instanceof AdminApiError || err instanceof ConfigError)
    return err.message;
  if (err instanceof Error && err.name === 'ZodError') return `invalid input: ${err.message}`;
  return undefined;
}
