import { createHash } from 'node:crypto';
import type { DonationTerms } from '../../../shared/protocol/messages';
import type { BrowserRegistrationStore, TeamStore } from '../../platform/store';

export const deviceTokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');

/** A browser paired with a team, as its last connection left it, connected now or not. */
export interface PairedBrowser {
  browserId: string;
  label: string;
  /** The domains its owner allowed when it last connected (or was paired). */
  allowedDomains: string[];
  /** False while its owner has paused lending; unknown (undefined) before it first connected. */
  enabled: boolean | undefined;
  lastSeenAt: Date | undefined;
  revokedAt: Date | undefined;
}

/**
 * How long a team's list of paired browsers is read from memory: routing asks for it on every
 * scrape of the team that no connected donated browser covers, and a pairing, a revocation or a
 * change of terms made on another instance shows within this.
 */
export const PAIRED_BROWSERS_TTL_MS = 2_000;

/** What the hub needs to know of paired browsers; the registrations in the store answer it. */
export interface DonatedBrowserDirectory {
  /** The paired browser a device token belongs to, revoked or not; undefined for unknown tokens. */
  find(
    deviceToken: string,
  ): Promise<{ browserId: string; team: { id: string; name: string }; revoked: boolean } | undefined>;
  /** Records that the browser connected, with the terms its owner set. */
  connected(browserId: string, terms: DonationTerms): Promise<void>;
  /** Which of these browsers were revoked meanwhile, by this server instance or another. */
  revokedAmong(browserIds: readonly string[]): Promise<string[]>;
}

/** What routing needs to know of paired browsers, connected or not (donated-routes.ts). */
export interface PairedBrowsers {
  /** Every browser paired with the team, revoked ones included (read at most every PAIRED_BROWSERS_TTL_MS). */
  pairedWith(teamId: string): Promise<PairedBrowser[]>;
  /** Reads the store again next time: a browser was revoked here, which routes differently at once. */
  forgetPaired(): void;
}

export function createDonatedBrowserDirectory({
  registrations,
  teams,
  now = Date.now,
}: {
  registrations: BrowserRegistrationStore;
  teams: TeamStore;
  now?: () => number;
}): DonatedBrowserDirectory & PairedBrowsers {
  const paired = new Map<string, { readAt: number; browsers: Promise<PairedBrowser[]> }>();
  return {
    async find(deviceToken) {
      const registration = await registrations.findAnyByTokenDigest(deviceTokenDigest(deviceToken));
      if (registration === undefined) return undefined;
      const team = await teams.get(registration.teamId);
      return {
        browserId: registration._id,
        team: { id: registration.teamId, name: team?.name ?? registration.teamId },
        revoked: registration.revokedAt !== undefined,
      };
    },
    connected: (browserId, terms) => registrations.recordTerms(browserId, terms),
    revokedAmong: (browserIds) => registrations.revokedAmong(browserIds),
    pairedWith(teamId) {
      const known = paired.get(teamId);
      if (known !== undefined && now() - known.readAt < PAIRED_BROWSERS_TTL_MS) return known.browsers;
      const browsers = registrations.listForTeam(teamId).then((list) =>
        list.map((registration) => ({
          browserId: registration._id,
          label: registration.label,
          allowedDomains: registration.allowedDomains,
          enabled: registration.enabled,
          lastSeenAt: registration.lastSeenAt,
          revokedAt: registration.revokedAt,
        })),
      );
      const entry = { readAt: now(), browsers };
      // A failed read is not remembered: the next scrape asks the store again.
      browsers.catch(() => {
        if (paired.get(teamId) === entry) paired.delete(teamId);
      });
      paired.set(teamId, entry);
      // Teams that stopped scraping are forgotten rather than kept for good.
      for (const [team, entry] of paired)
        if (now() - entry.readAt >= PAIRED_BROWSERS_TTL_MS) paired.delete(team);
      return browsers;
    },
    forgetPaired: () => paired.clear(),
  };
}
