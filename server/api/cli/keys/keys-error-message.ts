import { ConfigError } from '../../../platform/config';
import { DirectoryLockedError } from '../../../platform/store';
import { TeamAdminError } from '../../../platform/teams';
import { UsageError } from '../usage-error';

/**
 * The one line a keys command says when it fails for a reason the operator can act on (a team that
 * exists already, a store held by a running server, bad settings); undefined for a bug, whose stack
 * the caller prints.
 */
export function keysErrorMessage(err: unknown): string | undefined {
  if (err instanceof UsageError) return `${err.message} (see --help)`;
  if (err instanceof TeamAdminError || err instanceof DirectoryLockedError || err instanceof ConfigError)
    return err.message;
  if (err instanceof Error && err.name === 'ZodError') return `invalid input: ${err.message}`;
  return undefined;
}
