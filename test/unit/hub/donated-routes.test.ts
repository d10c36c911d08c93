import { describe, expect, it } from 'vitest';
import {
  createDonatedBrowserDirectory,
  type PairedBrowser,
} from '../../../server/browsers/hub/donated-browser-directory';
import { createDonatedRoutes, donatedRouteUnavailable } from '../../../server/browsers/hub/donated-routes';

const INTRANET = 'http://wiki.corp.test/page';

function paired(overrides: Partial<PairedBrowser> & { browserId: string }): PairedBrowser {
  return {
    label: `Chrome of ${overrides.browserId}`,
    allowedDomains: ['corp.test'],
    enabled: true,
    lastSeenAt: new Date('2030-01-01T10:00:00Z'),
    revokedAt: undefined,
    ...overrides,
  };
}

function routes({
  browsers = [],
  connected = [],
  covering = [],
  storeDown = false,
}: {
  browsers?: PairedBrowser[];
  /** Browser ids with a socket. */
  connected?: string[];
  /** Connected browsers that take the URL now. */
  covering?: Array<{ browserId: string; busy: boolean }>;
  storeDown?: boolean;
}) {
  return createDonatedRoutes({
    hub: {
      donatedBrowsersFor: (teamId) => (teamId === 'a' ? covering : []),
      isBrowserConnected: (browserId) => connected.includes(browserId),
    },
    directory: {
      pairedWith: async (teamId) => {
        if (storeDown) throw new Error('store down');
        return teamId === 'a' ? browsers : [];
      },
    },
  });
}

describe('donated routes', () => {
  it('route nothing for a team without a browser that allows the host', async () => {
    expect(await routes({}).routeFor('a', INTRANET)).toBeUndefined();
    const elsewhere = routes({ browsers: [paired({ browserId: 'p1', allowedDomains: ['other.test'] })] });
    expect(await elsewhere.routeFor('a', INTRANET)).toBeUndefined();
    // Another team's browser allows it: that says nothing to this team.
    expect(await routes({ browsers: [paired({ browserId: 'p1' })] }).routeFor('b', INTRANET)).toBeUndefined();
  });

  it('send a URL to the connected browser that takes it, ready or busy', async () => {
    const browsers = [paired({ browserId: 'p1', label: "Ana's Chrome" })];
    expect(
      await routes({ browsers, connected: ['p1'], covering: [{ browserId: 'p1', busy: false }] }).routeFor(
        'a',
        INTRANET,
      ),
    ).toEqual({ browser: { id: 'p1', label: "Ana's Chrome" }, state: 'ready' });
    expect(
      await routes({ browsers, connected: ['p1'], covering: [{ browserId: 'p1', busy: true }] }).routeFor(
        'a',
        INTRANET,
      ),
    ).toMatchObject({ state: 'busy' });
  });

  it('keep the URL for a browser that is offline or paused, naming the one last seen', async () => {
    const older = paired({ browserId: 'old', lastSeenAt: new Date('2029-01-01T00:00:00Z') });
    const newer = paired({ browserId: 'new', label: "Ana's laptop" });
    expect(await routes({ browsers: [older, newer] }).routeFor('a', INTRANET)).toEqual({
      browser: { id: 'new', label: "Ana's laptop" },
      state: 'offline',
      since: newer.lastSeenAt,
    });
    // Connected, but not taking the URL: its owner paused lending.
    expect(
      await routes({ browsers: [older, newer], connected: ['old'] }).routeFor('a', INTRANET),
    ).toMatchObject({ browser: { id: 'old' }, state: 'paused' });
    const pausedOffline = paired({ browserId: 'p', enabled: false });
    expect(await routes({ browsers: [pausedOffline] }).routeFor('a', INTRANET)).toMatchObject({
      state: 'paused',
    });
  });

  it('name a revoked browser without routing to it, and route nothing when the store cannot say', async () => {
    const revokedAt = new Date('2030-02-01T00:00:00Z');
    expect(
      await routes({ browsers: [paired({ browserId: 'r', revokedAt })] }).routeFor('a', INTRANET),
    ).toEqual({
      browser: { id: 'r', label: 'Chrome of r' },
      state: 'revoked',
      since: revokedAt,
    });
    expect(
      await routes({ browsers: [paired({ browserId: 'p1' })], storeDown: true }).routeFor('a', INTRANET),
    ).toBe(undefined);
  });

  it('say what is wrong and what would help, in words naming the browser', () => {
    const browser = { id: 'p1', label: "Ana's Chrome" };
    const since = new Date('2030-01-01T10:00:00Z');
    expect(donatedRouteUnavailable({ browser, state: 'offline', since }, 'wiki.corp.test')).toBe(
      `wiki.corp.test is reached only through your team's donated browser "Ana's Chrome", which is offline since 2030-01-01T10:00:00.000Z. The server does not fetch this site itself: start that browser (the Tabhive extension connects on its own) and try again.`,
    );
    expect(donatedRouteUnavailable({ browser, state: 'paused' }, 'wiki.corp.test')).toContain('paused');
    expect(donatedRouteUnavailable({ browser, state: 'busy' }, 'wiki.corp.test')).toContain('busy');
    expect(donatedRouteUnavailable({ browser, state: 'revoked', since }, 'wiki.corp.test')).toContain(
      'which the team revoked',
    );
  });
});

describe("the directory's list of a team's paired browsers", () => {
  it('is read from the store at most every two seconds, and again at once after a revocation here', async () => {
    let reads = 0;
    let time = 0;
    const registrations = {
      listForTeam: async () => {
        reads += 1;
        return [
          {
            _id: 'p1',
            teamId: 'a',
            tokenDigest: 'd',
            label: 'L',
            allowedDomains: ['corp.test'],
            createdAt: new Date(),
          },
        ];
      },
    } as unknown as Parameters<typeof createDonatedBrowserDirectory>[0]['registrations'];
    const teams = {} as Parameters<typeof createDonatedBrowserDirectory>[0]['teams'];
    const directory = createDonatedBrowserDirectory({ registrations, teams, now: () => time });
    expect(await directory.pairedWith('a')).toMatchObject([
      { browserId: 'p1', allowedDomains: ['corp.test'] },
    ]);
    await directory.pairedWith('a');
    expect(reads).toBe(1);
    time = 2_000;
    await directory.pairedWith('a');
    expect(reads).toBe(2);
    directory.forgetPaired();
    await directory.pairedWith('a');
    expect(reads).toBe(3);
  });
});
