/**
 * Path segments after which sites put a capability: whoever holds the URL may open what it names
 * (a shared document, an invitation, a password reset). The segment after one is a secret when it
 * reads as a code rather than words (`/share/aB3dE9`, not `/share/twitter` or `/reset/password`).
 */
const CAPABILITY_MARKERS = new Set([
  'activate',
  'activation',
  'api-key',
  'apikey',
  'auth',
  'claim',
  'confirm',
  'confirmation',
  'invitation',
  'invitations',
  'invite',
  'invites',
  'join',
  'key',
  'keys',
  'magic',
  'magic-link',
  'otp',
  'password-reset',
  'preview',
  'recover',
  'recovery',
  'redeem',
  'reset',
  'reset-password',
  'secret',
  'secrets',
  'session',
  'sessions',
  'share',
  'shared',
  'signature',
  'sso',
  'ticket',
  'token',
  'tokens',
  'unsubscribe',
  'verify',
  'verification',
]);

/** Words that mark a capability inside one segment: the markers above, and a few only seen there. */
const SEGMENT_MARKERS = new Set([
  ...CAPABILITY_MARKERS,
  'capability',
  'cap',
  'private',
  'sig',
  'secret-link',
]);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** A JSON Web Token (its header always starts with `{"`, base64url `eyJ`). */
const JWT = /eyJ[A-Za-z0-9_-]{8,}/;
/** Hex digests and hex tokens: 24 digits and more (a commit id, an MD5, a random key). */
const LONG_HEX = /^[0-9a-f]{24,}$/i;
const VOWELS = /[aeiouy]/gi;
/** Where a slug's words end: a random run is looked for within one word. */
const WORD_BREAK = /[-_.~+,;:@!$&'()*=\s]+/;
/** A word shorter than this is never taken for a random run (SKUs, short ids, years). */
const MIN_RANDOM_LENGTH = 16;
/**
 * Shorter ids are a random run only when every kind is in them and they switch kind at almost
 * every character (`Xk9pQ2mZ789`): what short share links and unlisted videos are made of.
 */
const MIN_SHORT_RANDOM_LENGTH = 10;
const SHORT_RANDOM_RATE = 0.6;
/** An e-mail address in a path names a person (`/u/jane.doe@corp.example/invoices`). */
const EMAIL = /[^@/\s]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/i;

const classOf = (char: string) => (/[0-9]/.test(char) ? 'd' : /[A-Z]/.test(char) ? 'u' : 'l');

/** How often a run's characters switch between digit, capital and small letter, and its share of capitals. */
function switches(run: string) {
  let digit = 0;
  let letterCase = 0;
  let upper = 0;
  let letters = 0;
  for (let index = 0; index < run.length; index += 1) {
    const kind = classOf(run[index] as string);
    if (kind !== 'd') letters += 1;
    if (kind === 'u') upper += 1;
    if (index === 0) continue;
    const before = classOf(run[index - 1] as string);
    if ((before === 'd') !== (kind === 'd')) digit += 1;
    else if (before !== kind) letterCase += 1;
  }
  return {
    digit,
    rate: (digit + letterCase) / Math.max(1, run.length - 1),
    upperShare: letters === 0 ? 0 : upper / letters,
  };
}

/**
 * Whether a run mixes cases at random: capitals about half the letters (camel case has few:
 * `iPhone15ProMaxCase`, `GettingStartedWithReact`), and a switch of kind every few characters.
 */
const randomCase = (run: string, minRate: number) => {
  const { rate, upperShare } = switches(run);
  return upperShare > 0.3 && upperShare < 0.7 && rate >= minRate;
};

/**
 * Whether one word (no separators) looks machine-made: a long hex run, letters and digits
 * interleaved (`x7Gk2PqZ9mLw4RtY`), or cases mixed at random (`QmXkZpLtRwYvBnHs`).
 */
function randomRun(word: string): boolean {
  if (word.length < MIN_SHORT_RANDOM_LENGTH || !/^[A-Za-z0-9]+$/.test(word)) return false;
  if (word.length < MIN_RANDOM_LENGTH) {
    return (
      /[0-9]/.test(word) &&
      /[a-z]/.test(word) &&
      /[A-Z]/.test(word) &&
      switches(word).rate >= SHORT_RANDOM_RATE
    );
  }
  if (LONG_HEX.test(word) && /[0-9]/.test(word) && /[a-f]/i.test(word)) return true;
  return switches(word).digit >= 4 || randomCase(word, 0.35);
}

/**
 * Whether one word right after a capability marker reads as a code: six characters or more that
 * mix letters and digits (`abc123`) or cases (`TqWzKp`), six digits or more (`839201`), or eight
 * letters or more with hardly a vowel (`kqzvbxnmtr`).
 */
function codeWord(word: string): boolean {
  if (word.length < 6) return false;
  const letters = (word.match(/[A-Za-z]/g) ?? []).length;
  const digits = (word.match(/[0-9]/g) ?? []).length;
  if (letters > 0 && digits > 0) return true;
  if (letters === 0) return digits >= 6;
  if (/[A-Z]/.test(word) && /[a-z]/.test(word) && !/^[A-Z][a-z]+$/.test(word)) return true;
  return letters >= 8 && (word.match(VOWELS) ?? []).length / letters < 0.2;
}

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * Whether a path segment looks like a secret on its own: a UUID, a JSON Web Token, an e-mail
 * address, a long hex digest, a run of random-looking letters and digits, or a code after a marker
 * word inside the segment. Ordinary slugs (`my-first-post`,
 * `getting-started`, `2024`, product codes like `B07XJ8C8F5` or `SKU-12345-XL`) do not.
 */
export function looksSecret(segment: string): boolean {
  const text = decoded(segment);
  if (UUID.test(text) || JWT.test(text) || EMAIL.test(text)) return true;
  const words = text.split(WORD_BREAK);
  if (words.some(randomRun)) return true;
  // A marker inside the segment (`invite_xK9mQ2`, `TEAM-A-CAPABILITY-1732871234567`) makes the
  // code words after it a capability, as a marker segment does for the segment after it.
  const marker = words.findIndex((word) => SEGMENT_MARKERS.has(word.toLowerCase()));
  if (marker !== -1 && words.slice(marker + 1).some(codeWord)) return true;
  // base64url tokens hold `-` and `_`, which split them into short words: looked at whole too,
  // more strictly, since slugs joined up mix cases more than their words do.
  const joined = text.replace(/[-_]/g, '');
  return joined.length >= MIN_RANDOM_LENGTH && /^[A-Za-z0-9]+$/.test(joined) && randomCase(joined, 0.45);
}

/**
 * Whether a URL's path carries what looks like a capability: a secret-looking segment anywhere,
 * or a segment that is not an ordinary word right after a marker such as `share`, `invite`,
 * `reset` or `token`. A host name made of such a label counts too (a preview deployment's or a
 * tunnel's random subdomain). Such URLs stay out of what every team's map reads (docs/security.md).
 */
export function carriesSecret(url: URL): boolean {
  if (url.hostname.split('.').some(looksSecret)) return true;
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  return segments.some((segment, index) => {
    if (looksSecret(segment)) return true;
    const before = segments[index - 1];
    return (
      before !== undefined &&
      CAPABILITY_MARKERS.has(decoded(before).toLowerCase()) &&
      decoded(segment).split(WORD_BREAK).some(codeWord)
    );
  });
}
