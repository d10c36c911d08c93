import { randomBytes, randomUUID } from 'node:crypto';
import { deviceTokenDigest } from '../hub';
import { errors } from '../../platform/errors';
import type { BrowserRegistrationStore, PairingCodeStore, TeamStore } from '../../platform/store';
import { newPairingCode, normalizePairingCode } from './pairing-code';

/** Long enough to walk to the other browser and type the code; short enough that a leaked one soon dies. */
export const PAIRING_CODE_TTL_MS = 10 * 60_000;

/** Device tokens carry a prefix so that one found in a log or a paste is recognisable. */
const newDeviceToken = () => `thd_${randomBytes(32).toString('base64url')}`;

/**
 * Pairing donated browsers with teams: a team member makes a one-time code, the browser's owner
 * types it into the extension, and the extension exchanges it for a device token (only its digest
 * is stored). Revoking a browser ends its registration and, through `disconnect`, its connection.
 */
export function createPairingService({
  pairingCodes,
  registrations,
  teams,
  disconnect,
  codeTtlMs = PAIRING_CODE_TTL_MS,
}: {
  pairingCodes: PairingCodeStore;
  registrations: BrowserRegistrationStore;
  teams: TeamStore;
  /** Closes a revoked browser's live connection on this instance (others notice within seconds). */
  disconnect(browserId: string): void;
  codeTtlMs?: number;
}) {
  const revoke = async (browserId: string) => {
    await registrations.revoke(browserId);
    disconnect(browserId);
  };

  return {
    async issueCode(teamId: string, now = new Date()) {
      const code = newPairingCode();
      const { expiresAt } = await pairingCodes.issue({ code, teamId, ttlMs: codeTtlMs, now });
      return { code, expiresAt };
    },

    async pair({ code, label }: { code: string; label?: string | undefined }) {
      const spent = await pairingCodes.spend(normalizePairingCode(code));
      if ('refused' in spent) {
        throw spent.refused === 'expired' ? errors.pairingCodeExpired() : errors.pairingCodeInvalid();
      }
      const deviceToken = newDeviceToken();
      const registration = await registrations.register({
        _id: randomUUID(),
        teamId: spent.teamId,
        tokenDigest: deviceTokenDigest(deviceToken),
        label: label ?? 'Donated browser',
        allowedDomains: [],
      });
      const team = await teams.get(spent.teamId);
      return {
        browserId: registration._id,
        deviceToken,
        team: { id: spent.teamId, name: team?.name ?? spent.teamId },
      };
    },

    list: (teamId: string) => registrations.listForTeam(teamId),

    /** Revokes one of the team's browsers; another team's id is as unknown as a made-up one. */
    async revokeForTeam(teamId: string, browserId: string) {
      const registration = await registrations.get(browserId);
      if (registration === undefined || registration.teamId !== teamId) throw errors.browserNotFound();
      await revoke(browserId);
    },

    /** A browser unpairing itself with its own device token. */
    async unpairDevice(deviceToken: string) {
      const registration = await registrations.findByTokenDigest(deviceTokenDigest(deviceToken));
      if (registration === undefined) throw errors.deviceTokenInvalid();
      await revoke(registration._id);
    },

    /** The team a live (not revoked) device token pairs its browser with. */
    async teamOfDevice(deviceToken: string): Promise<string> {
      const registration = await registrations.findByTokenDigest(deviceTokenDigest(deviceToken));
      if (registration === undefined) throw errors.deviceTokenInvalid();
      return registration.teamId;
    },
  };
}

export type PairingService = ReturnType<typeof createPairingService>;
