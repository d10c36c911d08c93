import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { silentLog } from '../log';
import { createStores } from '../store/create-stores';
import { DirectoryLockedError } from '../store/embedded/directory-lock';
import { openDatabase } from '../store/open-database';
import {
  TeamAdminError,
  createTeamAdmin,
  NewTeamInput,
  TeamSettingsInput,
  type TeamView,
} from '../teams/team-admin';
import { TeamId } from '../teams/team-id';
import { createNodeTokenAdmin } from '../teams/node-token-admin';

const USAGE = `Teams and API keys of a Tabhive store (MONGODB_URL, or the embedded store in DATA_DIR).

  npm run keys -- create --team <team> [--label <text>]   new key (the team is created if missing)
  npm run keys -- list [--team <team>]                     keys: id, hint, team, label, state
  npm run keys -- revoke <key-id>                          revoke a key (takes effect within seconds)
  npm run keys -- team create <team> [settings]            new team
  npm run keys -- team list                                teams with their settings and balance
  npm run keys -- team set <team> [settings]               change a team's settings
  npm run keys -- node-token create [--team <team>] [--label <text>]
                                                           token for browser nodes (the shared pool
                                                           without --team; one team's otherwise)
  npm run keys -- node-token list                          node tokens: id, team, label, state
  npm run keys -- node-token revoke <token-id>             revoke (its browsers leave within seconds)

Settings: --allowance <credits|unlimited>  --concurrency <n|default>  --rate-limit <per-minute|default>
          --name <display name>
Add --json for machine-readable output.`;

class UsageError extends Error {}

/** `unlimited`/`default` → null (no allowance, server default); a number otherwise. */
function setting(value: string | undefined, word: 'unlimited' | 'default'): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === word) return null;
  if (!/^\d+$/.test(value)) throw new UsageError(`expected a whole number or "${word}", got "${value}"`);
  return Number(value);
}

function settingsOf(values: Record<string, string | boolean | undefined>): TeamSettingsInput {
  const text = (name: string) => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
  };
  const parsed = TeamSettingsInput.safeParse({
    ...(text('name') === undefined ? {} : { name: text('name') }),
    ...(text('allowance') === undefined ? {} : { creditAllowance: setting(text('allowance'), 'unlimited') }),
    ...(text('concurrency') === undefined ? {} : { maxConcurrency: setting(text('concurrency'), 'default') }),
    ...(text('rate-limit') === undefined
      ? {}
      : { rateLimitPerMinute: setting(text('rate-limit'), 'default') }),
  });
  if (!parsed.success)
    throw new UsageError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
    );
  return parsed.data;
}

const teamLine = (team: TeamView) =>
  [
    team.id.padEnd(20),
    `credits used ${team.creditsUsed}`,
    team.creditAllowance === null
      ? 'allowance unlimited'
      : `allowance ${team.creditAllowance} (left ${team.remainingCredits})`,
    `concurrency ${team.maxConcurrency ?? 'default'}`,
    `rate limit ${team.rateLimitPerMinute ?? 'default'}/min`,
  ].join('  ');

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      team: { type: 'string' },
      label: { type: 'string' },
      name: { type: 'string' },
      allowance: { type: 'string' },
      concurrency: { type: 'string' },
      'rate-limit': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, sub, arg] = positionals;
  if (values.help || command === undefined || command === 'help') {
    console.log(USAGE);
    return command === undefined && !values.help ? 2 : 0;
  }
  const print = (json: unknown, text: string) =>
    console.log(values.json ? JSON.stringify(json, null, 2) : text);

  const config = loadConfig(process.env);
  const database = await openDatabase({
    mongodbUrl: config.MONGODB_URL,
    dataDir: config.DATA_DIR,
    log: silentLog,
  });
  try {
    const stores = createStores(database);
    await stores.apiKeys.ensureIndexes();
    await stores.browserNodeTokens.ensureIndexes();
    const admin = createTeamAdmin(stores);
    const teamOption = () => {
      if (values.team === undefined) throw new UsageError('--team <team> is required');
      return TeamId.parse(values.team);
    };

    if (command === 'create') {
      const { apiKey, key } = await admin.createKey({
        teamId: teamOption(),
        label: values.label ?? 'key',
        ensureTeam: true,
      });
      print(
        { apiKey, ...key },
        `Created key ${key.keyId} for team ${key.teamId}. It is shown only now:\n  ${apiKey}`,
      );
    } else if (command === 'list') {
      const keys = await admin.listKeys(
        values.team === undefined ? {} : { teamId: TeamId.parse(values.team) },
      );
      print(
        keys,
        keys.length === 0
          ? 'No keys.'
          : keys
              .map((key) =>
                [
                  key.keyId,
                  key.hint.padEnd(12),
                  key.teamId.padEnd(20),
                  key.label.padEnd(16),
                  key.revokedAt === undefined ? 'active' : `revoked ${key.revokedAt.toISOString()}`,
                ].join('  '),
              )
              .join('\n'),
      );
    } else if (command === 'revoke') {
      if (sub === undefined) throw new UsageError('revoke needs the key id that `list` shows');
      const key = await admin.revokeKey(sub);
      print(key, `Revoked key ${key.keyId} of team ${key.teamId}.`);
    } else if (command === 'node-token' && sub === 'create') {
      const nodeTokens = createNodeTokenAdmin(stores);
      const created = await nodeTokens.create({
        team: values.team === undefined ? null : TeamId.parse(values.team),
        ...(values.label === undefined ? {} : { label: values.label }),
      });
      print(
        created,
        `Created node token ${created.id} for ${created.team === null ? 'the shared pool' : `team ${created.team}`}. It is shown only now:\n  ${created.token}\n` +
          `Start a node with:  npm run browser-node -- --server <this server's URL> --token ${created.token}`,
      );
    } else if (command === 'node-token' && sub === 'list') {
      const tokens = await createNodeTokenAdmin(stores).list();
      print(
        tokens,
        tokens.length === 0
          ? 'No node tokens.'
          : tokens
              .map((token) =>
                [
                  token.id,
                  (token.team ?? 'pool').padEnd(20),
                  token.label.padEnd(16),
                  token.revokedAt === null ? 'active' : `revoked ${token.revokedAt.toISOString()}`,
                  token.lastSeenAt === null ? 'never seen' : `seen ${token.lastSeenAt.toISOString()}`,
                ].join('  '),
              )
              .join('\n'),
      );
    } else if (command === 'node-token' && sub === 'revoke') {
      if (arg === undefined)
        throw new UsageError('node-token revoke needs the token id that `node-token list` shows');
      const revoked = await createNodeTokenAdmin(stores).revoke(arg);
      print(revoked, `Revoked node token ${revoked.id}.`);
    } else if (command === 'team' && sub === 'create') {
      const team = await admin.createTeam(NewTeamInput.parse({ id: arg, ...settingsOf(values) }));
      print(team, `Created team ${teamLine(team)}`);
    } else if (command === 'team' && sub === 'list') {
      const teams = await admin.listTeams();
      print(teams, teams.length === 0 ? 'No teams.' : teams.map(teamLine).join('\n'));
    } else if (command === 'team' && sub === 'set') {
      const team = await admin.updateTeam(TeamId.parse(arg), settingsOf(values));
      print(team, `Updated team ${teamLine(team)}`);
    } else {
      throw new UsageError(`unknown command: ${positionals.join(' ')}`);
    }
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))
      console.error(`${(err as Error).message}\n\n${USAGE}`);
    else if (err instanceof UsageError) console.error(`${err.message}\n\n${USAGE}`);
    else if (
      err instanceof TeamAdminError ||
      err instanceof DirectoryLockedError ||
      err instanceof ConfigError
    )
      console.error(err.message);
    else if (err instanceof Error && err.name === 'ZodError') console.error(`invalid input: ${err.message}`);
    else console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
