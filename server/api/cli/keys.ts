import { createKeysCommand } from './keys/keys-command';
import { keysErrorMessage } from './keys/keys-error-message';

// `npm run keys -- …`; the same commands are `tabhive keys …` (server/api/cli/tabhive/main.ts).
createKeysCommand('npm run keys --')
  .parseAsync(process.argv.slice(2), { from: 'user' })
  .then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(keysErrorMessage(err) ?? (err instanceof Error ? (err.stack ?? err.message) : err));
      process.exit(1);
    },
  );
