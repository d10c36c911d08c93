import { z } from 'zod';

/** Letters, digits, `.`, `_` and `-`, starting with a letter or digit: a name, not a path. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const MAX_PROFILE_NAME_LENGTH = 64;

/**
 * The v2 scrape option `profile`: a named, persistent browser profile of the caller's team. The
 * scrape starts from the cookies and localStorage the profile holds and, unless `saveChanges` is
 * false (Firecrawl's clients default it to true), saves what the page changed back into it.
 */
export const BrowserProfileOption = z.object({
  name: z.string().min(1).max(MAX_PROFILE_NAME_LENGTH).regex(PROFILE_NAME, {
    error: 'Profile names use letters, digits, ".", "_" and "-", and start with a letter or digit',
  }),
  saveChanges: z.boolean().default(true),
});
export type BrowserProfileOption = z.infer<typeof BrowserProfileOption>;
