import { createHash } from 'node:crypto';
import type { DonationTerms } from '../../../shared/protocol/messages';
import type { BrowserRegistrationStore, TeamStore } from '../../platform/store';

export const deviceTokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');

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

export function createDonatedBrowserDirectory({
  registrations,
  teams,
}: {
  registrations: BrowserRegistrationStore;
  teams: TeamStore;
}): DonatedBrowserDirectory {
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
  };
}
