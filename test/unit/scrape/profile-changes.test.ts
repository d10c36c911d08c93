import { describe, expect, it } from 'vitest';
import type { BrowserProfileState, ProfileCookie } from '../../../shared/protocol/browser-profile-state';
import {
  applyProfileChanges,
  isUnchanged,
  profileChanges,
} from '../../../server/scrape/capture/profile-changes';

const NOW_MS = Date.UTC(2026, 0, 1);
const inAnHour = NOW_MS / 1000 + 3600;

const cookie = (name: string, value: string, extra: Partial<ProfileCookie> = {}): ProfileCookie => ({
  name,
  value,
  domain: 'site.test',
  path: '/',
  hostOnly: true,
  secure: false,
  httpOnly: false,
  sameSite: 'lax',
  expirationDate: inAnHour,
  ...extra,
});
const state = (
  cookies: ProfileCookie[],
  storage: Record<string, Record<string, string>> = {},
): BrowserProfileState => ({
  cookies,
  localStorage: Object.entries(storage).map(([origin, items]) => ({
    origin,
    items: Object.entries(items).map(([key, value]) => ({ key, value })),
  })),
});

describe('browser profile changes', () => {
  it('finds the cookies and items a scrape set, changed and removed', () => {
    const before = state([cookie('session', 'old'), cookie('gone', '1')], {
      'http://site.test': { token: 'a', stale: 'x' },
      'http://other.test': { kept: 'y' },
    });
    const after = state([cookie('session', 'new'), cookie('pref', 'dark')], {
      'http://site.test': { token: 'b' },
    });
    expect(profileChanges(before, after)).toEqual({
      setCookies: [cookie('session', 'new'), cookie('pref', 'dark')],
      removedCookies: ['gone\nsite.test\n/'],
      setItems: [{ origin: 'http://site.test', key: 'token', value: 'b' }],
      // http://other.test was not read back: it stays as it was.
      removedItems: [{ origin: 'http://site.test', key: 'stale' }],
    });
  });

  it('sees no change in a jar read back as it was loaded, give or take a fraction of a second', () => {
    const before = state([cookie('session', 'v', { expirationDate: 1_800_000_000 })]);
    const after = state([cookie('session', 'v', { expirationDate: 1_800_000_000.25 })]);
    expect(isUnchanged(profileChanges(before, after))).toBe(true);
  });

  it('tells cookies apart by name, domain and path', () => {
    const before = state([cookie('id', '1')]);
    const after = state([cookie('id', '1'), cookie('id', '2', { domain: '.site.test', hostOnly: false })]);
    expect(profileChanges(before, after).setCookies).toEqual([
      cookie('id', '2', { domain: '.site.test', hostOnly: false }),
    ]);
  });

  it('applies changes over what another scrape saved meanwhile, keeping both', () => {
    const loaded = state([]);
    const savedMeanwhile = state([cookie('session', 'erin')], { 'http://site.test': { token: 't' } });
    const mine = profileChanges(loaded, state([cookie('pref', 'dark')]));
    expect(applyProfileChanges(savedMeanwhile, mine, NOW_MS)).toEqual(
      state([cookie('session', 'erin'), cookie('pref', 'dark')], { 'http://site.test': { token: 't' } }),
    );
  });

  it('lets the later save win where two changed the same cookie, and drops emptied origins', () => {
    const current = state([cookie('session', 'first')], { 'http://site.test': { token: 't' } });
    const changes = profileChanges(
      state([cookie('session', 'base')], { 'http://site.test': { token: 't' } }),
      state([cookie('session', 'second')], { 'http://site.test': {} }),
    );
    expect(applyProfileChanges(current, changes, NOW_MS)).toEqual(state([cookie('session', 'second')]));
  });

  it('forgets expired cookies and keeps session cookies', () => {
    const session = cookie('s', '1');
    delete session.expirationDate;
    const expired = cookie('old', '1', { expirationDate: NOW_MS / 1000 - 1 });
    const unchanged = profileChanges(state([]), state([]));
    expect(applyProfileChanges(state([session, expired]), unchanged, NOW_MS)).toEqual(state([session]));
  });
});
