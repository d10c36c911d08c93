import { createHash, randomBytes, randomUUID } from 'node:crypto';

/**
 * Credentials of browsers on the hub. A launched browser gets a one-time launch token on its
 * command line; its first `hello` spends it and the server answers with a session token, which the
 * extension keeps for reconnects after its worker or socket restarts. Only digests are stored.
 */
export interface BrowserTokens {
  issueLaunchToken(): string;
  /** Spends a launch token or looks up a session token. */
  redeem(token: string): { browserId: string; sessionToken: string } | undefined;
  /**
   * Retires a launch token and the session that came from it, e.g. when the launcher has replaced
   * a browser that died: its old credentials must not let anyone else in.
   */
  revokeLaunchToken(launchToken: string): void;
  /** The browser that spent this launch token, if one did (for the launcher's watchdog). */
  browserIdOf(launchToken: string): string | undefined;
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

export function createBrowserTokens(): BrowserTokens {
  const launchTokens = new Set<string>();
  /** session-token digest → browser id */
  const sessions = new Map<string, string>();
  /** spent launch-token digest → browser id, so the launcher can revoke what it handed out */
  const spent = new Map<string, string>();

  return {
    issueLaunchToken() {
      const token = newToken();
      launchTokens.add(digest(token));
      return token;
    },

    redeem(token) {
      const hash = digest(token);
      const browserId = sessions.get(hash);
      if (browserId !== undefined) return { browserId, sessionToken: token };
      if (!launchTokens.delete(hash)) return undefined;
      const sessionToken = newToken();
      const id = randomUUID();
      sessions.set(digest(sessionToken), id);
      spent.set(hash, id);
      return { browserId: id, sessionToken };
    },

    browserIdOf: (launchToken) => spent.get(digest(launchToken)),

    revokeLaunchToken(launchToken) {
      const hash = digest(launchToken);
      launchTokens.delete(hash);
      const browserId = spent.get(hash);
      spent.delete(hash);
      if (browserId === undefined) return;
      for (const [sessionHash, id] of sessions) if (id === browserId) sessions.delete(sessionHash);
    },
  };
}
