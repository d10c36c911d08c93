import { randomBytes } from 'node:crypto';
import { TabhiveError } from '../../platform/errors';
import type { Upload } from './read-multipart-upload';

/** What staged uploads may hold, so that handing out upload URLs cannot fill the server's memory. */
export interface StagedUploadLimits {
  /** Bytes of one file (PARSE_MAX_FILE_BYTES). */
  maxFileBytes: number;
  /** How long an upload URL, and the file sent to it, is kept. */
  ttlMs: number;
  /** Uploads one team may hold at once, sent or not. */
  maxPerTeam: number;
  /** Bytes all teams' files may hold together. */
  maxTotalBytes: number;
}

export const DEFAULT_STAGED_UPLOAD_LIMITS: Omit<StagedUploadLimits, 'maxFileBytes'> = {
  ttlMs: 15 * 60_000,
  maxPerTeam: 20,
  maxTotalBytes: 512 * 1024 * 1024,
};

interface Staged {
  teamId: string;
  filename: string;
  contentType: string | undefined;
  expiresAt: number;
  bytes?: Buffer;
}

export interface StagedUploads {
  /** A new upload slot for the team: its id is the secret its PUT URL carries. */
  create(
    teamId: string,
    filename: string,
    contentType: string | undefined,
  ): { id: string; expiresAt: number };
  /** Whether `id` names a live slot that waits for its file. */
  accepts(id: string): boolean;
  /** Stores the file sent to `id`. */
  put(id: string, bytes: Buffer): { size: number; expiresAt: number };
  /** The team's uploaded file under `ref`, as a parse takes it (ended by `release` once parsed). */
  take(teamId: string, ref: string, options: string): Upload;
  release(ref: string): void;
  readonly maxFileBytes: number;
}

const errors = {
  notFound: () =>
    new TabhiveError(
      'not-found',
      'No upload by that reference: it was never made, has been parsed, or has expired',
      {
        code: 'UPLOAD_NOT_FOUND',
      },
    ),
  notSent: () =>
    new TabhiveError(
      'conflict',
      'Nothing has been sent to this upload yet: PUT the file to its uploadUrl first',
      {
        code: 'UPLOAD_NOT_COMPLETE',
      },
    ),
  alreadySent: () =>
    new TabhiveError('conflict', 'A file has already been sent to this upload URL', {
      code: 'UPLOAD_ALREADY_COMPLETE',
    }),
  tooMany: (limit: number) =>
    new TabhiveError(
      'rate-limited',
      `The team holds ${limit} uploads, the most it may: parse or let some expire first`,
      {
        code: 'TOO_MANY_UPLOADS',
        retryAfterSeconds: 60,
      },
    ),
  full: () =>
    new TabhiveError('unavailable', 'The server holds as many uploaded files as it may: try again later', {
      code: 'UPLOAD_STORAGE_FULL',
      retryAfterSeconds: 60,
    }),
};

/**
 * The two-step parse upload's files, held in this instance's memory until they are parsed or
 * expire: a slot per `upload-url`, bound to its team, whose id (192 random bits) is the secret of
 * its PUT URL, as a presigned URL's signature is. Bounded per file, per team and in all; a slot
 * takes one file. A parse on another instance of a cluster does not find it (documented).
 */
export function createStagedUploads(limits: StagedUploadLimits, now: () => number = Date.now): StagedUploads {
  const slots = new Map<string, Staged>();
  let heldBytes = 0;

  const sweep = () => {
    const at = now();
    for (const [id, slot] of slots) if (slot.expiresAt <= at) drop(id);
  };
  const drop = (id: string) => {
    const slot = slots.get(id);
    if (slot === undefined) return;
    heldBytes -= slot.bytes?.length ?? 0;
    slots.delete(id);
  };
  const live = (id: string) => {
    sweep();
    return slots.get(id);
  };

  return {
    maxFileBytes: limits.maxFileBytes,
    create(teamId, filename, contentType) {
      sweep();
      const held = [...slots.values()].filter((slot) => slot.teamId === teamId).length;
      if (held >= limits.maxPerTeam) throw errors.tooMany(limits.maxPerTeam);
      const id = randomBytes(24).toString('base64url');
      const expiresAt = now() + limits.ttlMs;
      slots.set(id, { teamId, filename, contentType, expiresAt });
      return { id, expiresAt };
    },
    accepts(id) {
      const slot = live(id);
      if (slot === undefined) throw errors.notFound();
      if (slot.bytes !== undefined) throw errors.alreadySent();
      if (heldBytes >= limits.maxTotalBytes) throw errors.full();
      return true;
    },
    put(id, bytes) {
      const slot = live(id);
      if (slot === undefined) throw errors.notFound();
      if (slot.bytes !== undefined) throw errors.alreadySent();
      if (heldBytes + bytes.length > limits.maxTotalBytes) throw errors.full();
      slot.bytes = bytes;
      heldBytes += bytes.length;
      return { size: bytes.length, expiresAt: slot.expiresAt };
    },
    take(teamId, ref, options) {
      const slot = live(ref);
      // Another team's upload is not found: whether it exists is that team's business.
      if (slot === undefined || slot.teamId !== teamId) throw errors.notFound();
      if (slot.bytes === undefined) throw errors.notSent();
      return { options, file: { filename: slot.filename, contentType: slot.contentType, bytes: slot.bytes } };
    },
    release: drop,
  };
}
