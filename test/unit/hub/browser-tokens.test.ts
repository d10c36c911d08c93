import { describe, expect, it } from 'vitest';
import {
  MAX_SPENT_TOKENS_PER_BROWSER,
  createBrowserTokens,
} from '../../../server/browsers/launch-tokens/browser-tokens';

/**
 * N1b of the red-team report: a launched browser's credentials are one-time. Each hello spends
 * the token it presents and gets the next one; a spent token presented again is a replay.
 */
describe('browser tokens', () => {
  it('spends a launch token once, and then takes it for a replay', () => {
    const tokens = createBrowserTokens();
    const launchToken = tokens.issueLaunchToken();
    const { browserId } = tokens.check(launchToken) as { browserId: string };
    expect(tokens.check(launchToken)).toEqual({ kind: 'valid', browserId });
    expect(tokens.browserIdOf(launchToken)).toBeUndefined();

    const grant = tokens.spend(launchToken);
    expect(grant?.browserId).toBe(browserId);
    expect(tokens.browserIdOf(launchToken)).toBe(browserId);
    expect(tokens.check(launchToken)).toEqual({ kind: 'replayed', browserId, spentToken: 'launch' });
    expect(tokens.spend(launchToken)).toBeUndefined();
  });

  it('rotates the session token at every hello: only the newest is valid', () => {
    const tokens = createBrowserTokens();
    const first = tokens.spend(tokens.issueLaunchToken());
    const second = tokens.spend(first?.sessionToken ?? '');
    expect(second).toBeDefined();
    expect(second?.browserId).toBe(first?.browserId);
    expect(second?.sessionToken).not.toBe(first?.sessionToken);
    expect(tokens.check(first?.sessionToken ?? '')).toEqual({
      kind: 'replayed',
      browserId: first?.browserId,
      spentToken: 'session',
    });
    expect(tokens.check(second?.sessionToken ?? '')).toEqual({ kind: 'valid', browserId: first?.browserId });
    // Two hellos with one token: the second finds it spent.
    expect(tokens.spend(first?.sessionToken ?? '')).toBeUndefined();
  });

  it('refuses every token of a revoked browser, and spends none of them', () => {
    const tokens = createBrowserTokens();
    const launchToken = tokens.issueLaunchToken();
    const first = tokens.spend(launchToken);
    const second = tokens.spend(first?.sessionToken ?? '');
    const browserId = first?.browserId ?? '';
    tokens.revokeBrowser(browserId);
    for (const token of [launchToken, first?.sessionToken, second?.sessionToken]) {
      expect(tokens.check(token ?? '')).toEqual({ kind: 'revoked', browserId });
      expect(tokens.spend(token ?? '')).toBeUndefined();
    }
    // Another browser is not concerned.
    expect(tokens.spend(tokens.issueLaunchToken())).toBeDefined();
  });

  it('forgets a browser the launcher replaced: its tokens are unknown', () => {
    const tokens = createBrowserTokens();
    const launchToken = tokens.issueLaunchToken();
    const grant = tokens.spend(launchToken);
    tokens.revokeLaunchToken(launchToken);
    expect(tokens.check(launchToken)).toEqual({ kind: 'unknown' });
    expect(tokens.check(grant?.sessionToken ?? '')).toEqual({ kind: 'unknown' });
    expect(tokens.browserIdOf(launchToken)).toBeUndefined();
  });

  it('remembers a bounded number of spent tokens per browser', () => {
    const tokens = createBrowserTokens();
    const spent: string[] = [];
    let current = tokens.spend(tokens.issueLaunchToken())?.sessionToken ?? '';
    for (let i = 0; i <= MAX_SPENT_TOKENS_PER_BROWSER; i += 1) {
      spent.push(current);
      current = tokens.spend(current)?.sessionToken ?? '';
    }
    expect(tokens.check(spent[0] ?? '')).toEqual({ kind: 'unknown' });
    expect(tokens.check(spent[1] ?? '').kind).toBe('replayed');
    expect(tokens.check(current).kind).toBe('valid');
  });

  it('knows none of the tokens it did not issue', () => {
    expect(createBrowserTokens().check('tbn_something')).toEqual({ kind: 'unknown' });
  });
});
