/** Generated keys start so (server/platform/store's api-key-format.ts): their hint keeps it whole. */
const GENERATED_PREFIX = 'fc-th_';

/**
 * What the command line says of a key: its first characters as `keys list` and the admin key list
 * show them, and its last four as the usage reports by key show them (`fc-th_1a2B…x9Yz`), so
 * either listing names it; never enough of it to use. A short key chosen by hand shows at most a
 * quarter of it.
 */
export function keyHint(apiKey: string): string {
  const start = apiKey.startsWith(GENERATED_PREFIX)
    ? apiKey.slice(0, GENERATED_PREFIX.length + 4)
    : apiKey.slice(0, Math.min(4, Math.floor(apiKey.length / 4)));
  const end = apiKey.length >= 24 ? apiKey.slice(-4) : '';
  return `${start}…${end}`;
}
