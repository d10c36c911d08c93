import { beforeEach, describe, expect, it } from 'vitest';
import { silentLog } from '../../../server/platform/log/log';
import { openBrowserProfile } from '../../../server/scrape/capture/browser-profile-use';
import { createStores, type Stores } from '../../../server/platform/store/create-stores';
import {
  MAX_PROFILE_STATE_CHARS,
  type BrowserProfileState,
  type ProfileCookie,
} from '../../../shared/protocol/browser-profile-state';
import type { PageCapture } from '../../../shared/protocol/messages';
import { DATABASE_BACKENDS, freshStores } from '../../helpers/database-backends';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000);
const cookie = (name: string, value: string, extra: Partial<ProfileCookie> = {}): ProfileCookie => ({
  name,
  value,
  domain: '.site.test',
  path: '/',
  hostOnly: false,
  secure: true,
  httpOnly: true,
  sameSite: 'no_restriction',
  // Far ahead: openBrowserProfile drops cookies expired by the real clock.
  expirationDate: 4_000_000_000.5,
  ...extra,
});
const loggedIn: BrowserProfileState = {
  cookies: [cookie('session', 'alice'), cookie('theme', 'dark', { hostOnly: true, domain: 'site.test' })],
  localStorage: [
    {
      origin: 'https://site.test',
      items: [
        { key: 'token', value: 'LS-alice' },
        { key: 'a.b$c', value: '{"nested":["json"]}' },
      ],
    },
  ],
};
const page = (profileState?: BrowserProfileState): PageCapture => ({
  url: 'https://site.test/',
  statusCode: 200,
  rawHtml: '',
  renderedHtml: '',
  ...(profileState === undefined ? {} : { profileState }),
});

describe.each(DATABASE_BACKENDS)('$kind database: browser profiles', (backend) => {
  describe.skipIf(!backend.available)(backend.kind, () => {
    const harness = backend.use();
    let stores: Stores;

    beforeEach(async () => {
      stores = await freshStores(harness);
    });

    it('reads a name never saved as an empty profile at version 0', async () => {
      expect(await stores.browserProfiles.load('team-a', 'work')).toEqual({
        state: { cookies: [], localStorage: [] },
        version: 0,
      });
      expect(await stores.browserProfiles.names('team-a')).toEqual([]);
    });

    it('keeps cookies with their attributes and localStorage, exactly', async () => {
      expect(await stores.browserProfiles.replace('team-a', 'work', loggedIn, 0, at(1))).toBe('saved');
      expect(await stores.browserProfiles.load('team-a', 'work')).toEqual({
        state: loggedIn,
        version: 1,
        updatedAt: at(1),
      });
      // Stored data survives a reopen of the database.
      const reopened = createStores(await harness.reopen());
      expect((await reopened.browserProfiles.load('team-a', 'work')).state).toEqual(loggedIn);
    });

    it('keeps each team’s profiles apart, whatever their names', async () => {
      await stores.browserProfiles.replace('team-a', 'p', loggedIn, 0, at(1));
      expect((await stores.browserProfiles.load('team-b', 'p')).version).toBe(0);
      expect(await stores.browserProfiles.replace('team-b', 'p', { cookies: [], localStorage: [] }, 0)).toBe(
        'saved',
      );
      expect((await stores.browserProfiles.load('team-a', 'p')).state).toEqual(loggedIn);
      expect(await stores.browserProfiles.remove('team-b', 'p')).toBe(true);
      expect((await stores.browserProfiles.load('team-a', 'p')).version).toBe(1);
      expect(await stores.browserProfiles.names('team-a')).toEqual(['p']);
    });

    it('writes only over the version it read: a second writer of the same version loses', async () => {
      expect(await stores.browserProfiles.replace('t', 'p', loggedIn, 0, at(1))).toBe('saved');
      expect(await stores.browserProfiles.replace('t', 'p', loggedIn, 0, at(2))).toBe('conflict');
      const emptied = { cookies: [], localStorage: [] };
      expect(await stores.browserProfiles.replace('t', 'p', emptied, 1, at(3))).toBe('saved');
      expect(await stores.browserProfiles.replace('t', 'p', loggedIn, 1, at(4))).toBe('conflict');
      expect(await stores.browserProfiles.load('t', 'p')).toEqual({
        state: emptied,
        version: 2,
        updatedAt: at(3),
      });
    });

    it('refuses a state over the size cap and keeps what it had', async () => {
      await stores.browserProfiles.replace('t', 'p', loggedIn, 0, at(1));
      const huge: BrowserProfileState = {
        cookies: [],
        localStorage: [
          {
            origin: 'https://site.test',
            items: [{ key: 'blob', value: 'x'.repeat(MAX_PROFILE_STATE_CHARS) }],
          },
        ],
      };
      expect(await stores.browserProfiles.replace('t', 'p', huge, 1, at(2))).toBe('too-large');
      expect((await stores.browserProfiles.load('t', 'p')).state).toEqual(loggedIn);
    });

    it('merges the changes of two scrapes that loaded the same version', async () => {
      const first = await openBrowserProfile(
        stores.browserProfiles,
        't',
        { name: 'p', saveChanges: true },
        silentLog,
      );
      const second = await openBrowserProfile(
        stores.browserProfiles,
        't',
        { name: 'p', saveChanges: true },
        silentLog,
      );
      expect(first.task).toEqual({ state: { cookies: [], localStorage: [] }, readBack: true });
      // The first logs in; the second, started from the empty profile, only sets a preference.
      const kept = await first.keep(page(loggedIn));
      expect(kept).not.toHaveProperty('profileState');
      await second.keep(page({ cookies: [cookie('pref', 'compact')], localStorage: [] }));
      expect(first.warning()).toBeUndefined();
      expect(second.warning()).toBeUndefined();
      const { state, version } = await stores.browserProfiles.load('t', 'p');
      expect(version).toBe(2);
      expect(state).toEqual({ ...loggedIn, cookies: [...loggedIn.cookies, cookie('pref', 'compact')] });
    });

    it('saves nothing when saveChanges is false, or when nothing changed', async () => {
      await stores.browserProfiles.replace('t', 'p', loggedIn, 0, at(1));
      const readOnly = await openBrowserProfile(
        stores.browserProfiles,
        't',
        { name: 'p', saveChanges: false },
        silentLog,
      );
      expect(readOnly.task).toEqual({ state: loggedIn, readBack: false });
      expect(await readOnly.keep(page({ cookies: [], localStorage: [] }))).toEqual(page());
      const unchanged = await openBrowserProfile(
        stores.browserProfiles,
        't',
        { name: 'p', saveChanges: true },
        silentLog,
      );
      await unchanged.keep(page(loggedIn));
      expect(await stores.browserProfiles.load('t', 'p')).toEqual({
        state: loggedIn,
        version: 1,
        updatedAt: at(1),
      });
    });

    it('warns instead of saving when the browser sent no state or the state is too large', async () => {
      const silent = await openBrowserProfile(
        stores.browserProfiles,
        't',
        { name: 'p', saveChanges: true },
        silentLog,
      );
      await silent.keep(page());
      expect(silent.warning()).toBe(
        'The browser profile "p" was not saved: the browser did not send its state back.',
      );
      const large = await openBrowserProfile(
        stores.browserProfiles,
        't',
        { name: 'p', saveChanges: true },
        silentLog,
      );
      await large.keep(
        page({
          cookies: [],
          localStorage: [
            {
              origin: 'https://site.test',
              items: [{ key: 'blob', value: 'x'.repeat(MAX_PROFILE_STATE_CHARS) }],
            },
          ],
        }),
      );
      expect(large.warning()).toMatch(/^The browser profile "p" was not saved: its cookies and localStorage/);
      expect((await stores.browserProfiles.load('t', 'p')).version).toBe(0);
    });
  });
});
