import type { BrowserProfileOption } from '../../../shared/api/v2/browser-profile-option';
import type { PageTaskSpec } from '../../../shared/protocol/messages';
import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { ScrapeDocument } from '../types';
import { createBoundedLru } from '../../platform/store';

/** What an interaction on a scrape's page opens it with: the scrape's own page settings. */
export interface InteractOptions {
  headers?: Record<string, string>;
  mobile?: boolean;
  location?: PageTaskSpec['location'];
  blockAds?: boolean;
  skipTlsVerification?: boolean;
  profile?: BrowserProfileOption;
}

/** Scrapes remembered for interact, at most (the oldest go first); a day of results at most. */
const MAX_REMEMBERED_SCRAPES = 20_000;
const REMEMBERED_BYTES = 64 * 1024 * 1024;
const REMEMBER_MS = 24 * 60 * 60_000;

/**
 * The page settings of recent scrapes, by scrape id, for `POST /v2/scrape/:id/interact`: a stored
 * result holds the document, not the options that made it. Kept in this process's memory: after a
 * restart (or on another instance) an interaction opens the scrape's final URL with the defaults.
 */
export function createInteractOptionsMemory() {
  const remembered = createBoundedLru<string, { teamId: string; options: InteractOptions; at: number }>({
    maxEntries: MAX_REMEMBERED_SCRAPES,
    maxBytes: REMEMBERED_BYTES,
  });
  return {
    remember(scrapeId: string, teamId: string, options: InteractOptions) {
      remembered.set(scrapeId, { teamId, options, at: Date.now() }, JSON.stringify(options).length + 100);
    },
    /** The options of the team's scrape, or undefined when this process does not know them. */
    recall(scrapeId: string, teamId: string): InteractOptions | undefined {
      const entry = remembered.peek(scrapeId);
      if (entry === undefined || entry.teamId !== teamId || Date.now() - entry.at > REMEMBER_MS)
        return undefined;
      return entry.options;
    },
  };
}

export type InteractOptionsMemory = ReturnType<typeof createInteractOptionsMemory>;

/** Remembers a finished scrape's page settings, for a later interaction on its page. */
export function rememberInteractOptions(
  memory: InteractOptionsMemory,
  request: ScrapeRequestV2,
  teamId: string,
  document: ScrapeDocument,
): void {
  const headers = request.headers ?? {};
  memory.remember(document.metadata.scrapeId, teamId, {
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(request.mobile ? { mobile: true } : {}),
    ...(request.location === undefined ? {} : { location: request.location }),
    ...(request.blockAds ? {} : { blockAds: false }),
    ...(request.skipTlsVerification ? {} : { skipTlsVerification: false }),
    ...(request.profile === undefined ? {} : { profile: request.profile }),
  });
}
