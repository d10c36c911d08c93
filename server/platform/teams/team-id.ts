import { z } from 'zod';

/**
 * A team's id is the name an operator gives it (`npm run keys -- team create acme`): short, and
 * safe in URLs, file names and log lines.
 */
export const TeamId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,62}$/,
    'a team name is 1-63 lower-case letters, digits, "-" or "_", starting with a letter or digit',
  );
export type TeamId = z.infer<typeof TeamId>;
