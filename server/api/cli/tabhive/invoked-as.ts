/**
 * How the user ran the command line, so that a command it prints back (the resume hint, help
 * examples) runs as typed: `npx tabhive`, `npm run tabhive --` or plain `tabhive`. npm tells its
 * children how it was called: `npm_command` (exec for npx and npm exec, run for npm run) and
 * `npm_lifecycle_event` (npx, or the script's name).
 */
export function invokedAs(env: Record<string, string | undefined> = process.env): string {
  const event = env.npm_lifecycle_event;
  if (env.npm_command === 'exec' && event === 'npx') return 'npx tabhive';
  if ((env.npm_command === 'run' || env.npm_command === 'run-script') && event === 'tabhive')
    return 'npm run tabhive --';
  return 'tabhive';
}
