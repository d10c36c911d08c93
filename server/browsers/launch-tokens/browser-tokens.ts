import { createHash, randomBytes, randomUUID } from 'node:crypto';

/**
 * What a token presented in `hello` is worth, without spending it:
 * - `valid`: the browser's unspent launch token or its current session token;
 * - `replayed`: a token of that browser that was already spent. Only a second holder presents
 *   one (the browser itself always holds the newest), so the browser's credentials were copied;
 * - `revoked`: a token of a browser whose credentials were revoked after a replay;
 * - `unknown`: none of this server's launched browsers (a device or node token, or garbage).
 */
export type TokenCheck =
  | { kind: 'valid'; browserId: string }
  | { kind: 'replayed'; browserId: string; spentToken: 'launch' | 'session' }
  | { kind: 'revoked'; browserId: string }
  | { kind: 'unknown' };

/**
 * Credentials of launched browsers on the hub. Each launch token names one browser identity; its
 * first `hello` spends it, and every accepted `hello` spends the session token it presented and
 * gets a new one in `welcome` (one-time refresh tokens). A copied token is therefore good for one
 * hello at most, and whichever of the two holders comes second presents a spent token: a replay,
 * after which the identity is revoked, so that neither holder keeps it (docs/security.md). Only
 * digests are kept, in memory: a launched browser serves the server that launched it.
 */
export interface BrowserTokens {
  issueLaunchToken(): string;
  /** What the token is worth now; spends nothing. */
  check(token: string): TokenCheck;
  /**
   * Spends a valid token and returns the browser's next session token; undefined when the token
   * is not valid (any more), e.g. a concurrent hello spent it first.
   */
  spend(token: string): { browserId: string; sessionToken: string } | undefined;
  /** Refuses every token of this browser from now on: its credentials were replayed. */
  revokeBrowser(browserId: string): void;
  /**
   * Retires a launch token and the session that came from it, e.g. when the launcher has replaced
   * a browser that died: its old credentials must not let anyone else in.
   */
  revokeLaunchToken(launchToken: string): void;
  /** The browser that spent this launch token, if one did (for the launcher's watchdog). */
  browserIdOf(launchToken: string): string | undefined;
}

/**
 * Spent session tokens remembered per browser, so that a replay is recognised as one. A browser
 * spends one per reconnect; an older copy than this is merely unknown, and refused all the same.
 */
export const MAX_SPENT_TOKENS_PER_BROWSER = 64;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

interface Identity {
  browserId: string;
  launchDigest: string;
  launchSpent: boolean;
  /** The one session token that is valid now (undefined before the first hello, and once revoked). */
  sessionDigest: string | undefined;
  /** Session tokens spent, oldest first. */
  spentDigests: string[];
  revoked: boolean;
}

export function createBrowserTokens(): BrowserTokens {
  /** Every digest handed out to a browser that is still known: launch, current and spent tokens. */
  const byDigest = new Map<string, Identity>();
  const byBrowserId = new Map<string, Identity>();

  const check = (token: string): TokenCheck => {
    const hash = digest(token);
    const identity = byDigest.get(hash);
    if (identity === undefined) return { kind: 'unknown' };
    const { browserId } = identity;
    if (identity.revoked) return { kind: 'revoked', browserId };
    if (hash === identity.launchDigest) {
      return identity.launchSpent
        ? { kind: 'replayed', browserId, spentToken: 'launch' }
        : { kind: 'valid', browserId };
    }
    return hash === identity.sessionDigest
      ? { kind: 'valid', browserId }
      : { kind: 'replayed', browserId, spentToken: 'session' };
  };

  const forget = (identity: Identity) => {
    byBrowserId.delete(identity.browserId);
    for (const hash of [identity.launchDigest, identity.sessionDigest, ...identity.spentDigests]) {
      if (hash !== undefined) byDigest.delete(hash);
    }
  };

  return {
    issueLaunchToken() {
      const token = newToken();
      const launchDigest = digest(token);
      const identity: Identity = {
        browserId: randomUUID(),
        launchDigest,
        launchSpent: false,
        sessionDigest: undefined,
        spentDigests: [],
        revoked: false,
      };
      byDigest.set(launchDigest, identity);
      byBrowserId.set(identity.browserId, identity);
      return token;
    },

    check,

    spend(token) {
      if (check(token).kind !== 'valid') return undefined;
      const identity = byDigest.get(digest(token)) as Identity;
      if (identity.launchSpent) {
        identity.spentDigests.push(identity.sessionDigest as string);
        if (identity.spentDigests.length > MAX_SPENT_TOKENS_PER_BROWSER) {
          byDigest.delete(identity.spentDigests.shift() as string);
        }
      }
      identity.launchSpent = true;
      const sessionToken = newToken();
      identity.sessionDigest = digest(sessionToken);
      byDigest.set(identity.sessionDigest, identity);
      return { browserId: identity.browserId, sessionToken };
    },

    revokeBrowser(browserId) {
      const identity = byBrowserId.get(browserId);
      if (identity === undefined) return;
      identity.revoked = true;
      // Kept as spent, so that whoever presents it later is told the browser was revoked.
      if (identity.sessionDigest !== undefined) identity.spentDigests.push(identity.sessionDigest);
      identity.sessionDigest = undefined;
    },

    browserIdOf(launchToken) {
      const identity = byDigest.get(digest(launchToken));
      return identity?.launchDigest === digest(launchToken) && identity.launchSpent
        ? identity.browserId
        : undefined;
    },

    revokeLaunchToken(launchToken) {
      const identity = byDigest.get(digest(launchToken));
      if (identity?.launchDigest === digest(launchToken)) forget(identity);
    },
  };
}
