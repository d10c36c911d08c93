import type { PageCapture } from '../../../../shared/protocol/messages';
import type { StoredDocument } from '../database';

/** Results anyone may be served. Results of a team's donated (logged-in) browsers carry the team id instead. */
export const PUBLIC_SCOPE = 'public';

export interface CacheEntry extends StoredDocument {
  /** Hash of the normalised URL and the options that change what the browser sees. */
  key: string;
  scope: string;
  /** Normalised URL, for people looking at the collection. */
  url: string;
  cachedAt: Date;
  expiresAt: Date;
  capture: PageCapture;
}
