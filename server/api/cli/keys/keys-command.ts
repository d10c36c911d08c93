import { Command } from 'commander';
import { TeamSettingsInput, NewTeamInput, TeamId } from '../../../platform/teams';
import { UsageError } from '../usage-error';
import type { KeysBackend } from './keys-backend';
import { keyLine, nodeTokenLine, teamLine } from './keys-output';

const SETTINGS_HELP = `
Settings: --allowance <credits|unlimited>  --concurrency <n|default>  --rate-limit <per-minute|default>
          --name <display name>
Where they act:
  on the store directly (MONGODB_URL, or the embedded store in DATA_DIR, default ./data), on the
    server's machine; while a running server holds the embedded store for itself, through that
    server's admin API when ADMIN_API_KEY is set (TABHIVE_API_URL, else http://127.0.0.1:$PORT,
    PORT 3002 by default; the server started with the same ADMIN_API_KEY).
Add --json for machine-readable output.`;

interface SettingsOptions {
  name?: string;
  allowance?: string;
  concurrency?: string;
  rateLimit?: string;
}

/** `unlimited`/`default` → null (no allowance, server default); a whole number otherwise. */
function setting(value: string | undefined, word: 'unlimited' | 'default'): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === word) return null;
  if (!/^\d+$/.test(value)) throw new UsageError(`expected a whole number or "${word}", got "${value}"`);
  return Number(value);
}

function settingsOf(options: SettingsOptions): TeamSettingsInput {
  const parsed = TeamSettingsInput.safeParse({
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.allowance === undefined ? {} : { creditAllowance: setting(options.allowance, 'unlimited') }),
    ...(options.concurrency === undefined ? {} : { maxConcurrency: setting(options.concurrency, 'default') }),
    ...(options.rateLimit === undefined ? {} : { rateLimitPerMinute: setting(options.rateLimit, 'default') }),
  });
  if (!parsed.success)
    throw new UsageError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
    );
  return parsed.data;
}

const withSettings = (command: Command) =>
  command
    .option('--name <display name>', "the team's display name")
    .option('--allowance <credits|unlimited>', 'credits the team may spend')
    .option('--concurrency <n|default>', 'pages the team may run at once')
    .option('--rate-limit <per-minute|default>', 'requests per minute');

/** What a command printed: the object for --json, the text otherwise. */
type Output = { json: unknown; text: string };

/**
 * Runs one keys command against the store, which is opened for it and closed after, or, while a
 * running server holds the embedded store and ADMIN_API_KEY is set, against its admin API. The store module is imported here,
 * on demand, so that other commands of the same program never load it.
 */
function storeAction<A extends unknown[]>(
  act: (store: KeysBackend, ...args: A) => Promise<Output>,
): (...args: [...A, Command]) => Promise<void> {
  return async (...args) => {
    const command = args[args.length - 1] as Command;
    const options = command.optsWithGlobals<{ json?: boolean; apiUrl?: string }>();
    const store: KeysBackend = await (
      await import('./open-keys-store')
    ).openKeysBackend(process.env, options.apiUrl);
    try {
      const output = await act(store, ...(args.slice(0, -1) as A));
      console.log(options.json === true ? JSON.stringify(output.json, null, 2) : output.text);
    } finally {
      await store.close();
    }
  };
}

/**
 * Teams, API keys and browser node tokens of a Tabhive store, as commander commands: the program
 * of `npm run keys` and the `keys` command of `tabhive` are both this one definition.
 */
export function createKeysCommand(name: string): Command {
  const keys = new Command(name)
    .description(
      "Teams and API keys: through a running server's admin API (ADMIN_API_KEY), or on its store (MONGODB_URL, or the embedded store in DATA_DIR).",
    )
    .option('--json', 'machine-readable output')
    .addHelpText('after', SETTINGS_HELP);

  keys
    .command('create')
    .description('new key (the team is created if missing); the key is shown only once')
    .requiredOption('--team <team>', 'the team the key belongs to')
    .option('--label <text>', 'what the key is for', 'key')
    .action(
      storeAction(async (store, options: { team: string; label: string }) => {
        const { apiKey, key } = await store.teams.createKey({
          teamId: TeamId.parse(options.team),
          label: options.label,
          ensureTeam: true,
        });
        return {
          json: { apiKey, ...key },
          text: `Created key ${key.keyId} for team ${key.teamId}. It is shown only now:\n  ${apiKey}`,
        };
      }),
    );

  keys
    .command('list')
    .description('keys: id, hint, team, label, state')
    .option('--team <team>', "only this team's keys")
    .action(
      storeAction(async (store, options: { team?: string }) => {
        const listed = await store.teams.listKeys(
          options.team === undefined ? {} : { teamId: TeamId.parse(options.team) },
        );
        return { json: listed, text: listed.length === 0 ? 'No keys.' : listed.map(keyLine).join('\n') };
      }),
    );

  keys
    .command('revoke')
    .description('revoke a key (takes effect within seconds)')
    .argument('<key-id>', 'the id that `list` shows')
    .action(
      storeAction(async (store, keyId: string) => {
        const key = await store.teams.revokeKey(keyId);
        return { json: key, text: `Revoked key ${key.keyId} of team ${key.teamId}.` };
      }),
    );

  const team = keys.command('team').description('teams: create, list, set');
  withSettings(team.command('create').description('new team').argument('<team>', 'the team id')).action(
    storeAction(async (store, id: string, options: SettingsOptions) => {
      const settings = settingsOf(options);
      const created = await store.teams.createTeam(NewTeamInput.parse({ id, ...settings }));
      return { json: created, text: `Created team ${teamLine(created)}` };
    }),
  );
  team
    .command('list')
    .description('teams with their settings and balance')
    .action(
      storeAction(async (store) => {
        const teams = await store.teams.listTeams();
        return { json: teams, text: teams.length === 0 ? 'No teams.' : teams.map(teamLine).join('\n') };
      }),
    );
  withSettings(
    team.command('set').description("change a team's settings").argument('<team>', 'the team id'),
  ).action(
    storeAction(async (store, id: string, options: SettingsOptions) => {
      const settings = settingsOf(options);
      const updated = await store.teams.updateTeam(TeamId.parse(id), settings);
      return { json: updated, text: `Updated team ${teamLine(updated)}` };
    }),
  );

  const nodeToken = keys.command('node-token').description('tokens for browser nodes: create, list, revoke');
  nodeToken
    .command('create')
    .description("token for browser nodes (the shared pool without --team; one team's otherwise)")
    .option('--team <team>', 'the team whose node this is')
    .option('--label <text>', 'what the node is')
    .action(
      storeAction(async (store, options: { team?: string; label?: string }) => {
        const created = await store.nodeTokens.create({
          team: options.team === undefined ? null : TeamId.parse(options.team),
          ...(options.label === undefined ? {} : { label: options.label }),
        });
        const owner = created.team === null ? 'the shared pool' : `team ${created.team}`;
        return {
          json: created,
          text:
            `Created node token ${created.id} for ${owner}. It is shown only now:\n  ${created.token}\n` +
            `Start a node with:  npm run browser-node -- --server <this server's URL> --token ${created.token}`,
        };
      }),
    );
  nodeToken
    .command('list')
    .description('node tokens: id, team, label, state')
    .action(
      storeAction(async (store) => {
        const tokens = await store.nodeTokens.list();
        return {
          json: tokens,
          text: tokens.length === 0 ? 'No node tokens.' : tokens.map(nodeTokenLine).join('\n'),
        };
      }),
    );
  nodeToken
    .command('revoke')
    .description('revoke a node token (its browsers leave within seconds)')
    .argument('<token-id>', 'the id that `node-token list` shows')
    .action(
      storeAction(async (store, id: string) => {
        const revoked = await store.nodeTokens.revoke(id);
        return { json: revoked, text: `Revoked node token ${revoked.id}.` };
      }),
    );

  return keys;
}
