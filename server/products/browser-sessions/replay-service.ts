import type { ReplayPage, ReplayPages } from '../../../shared/api/responses/browser-replay-responses';
import type { ReplayEvent } from '../../../shared/protocol/session-replay';
import type { BrowserSessionStore, SessionReplayStore } from '../../platform/store';
import { replayErrors } from './replay-errors';
import { sessionErrors } from './session-errors';

/** Firecrawl's page ids: a number of at most three digits. */
const PAGE_ID = /^\d{1,3}$/;

/**
 * Session replays as the routes serve them: a session's recorded pages and one page's rrweb
 * events, for the session's own team only (another team's session is not found), running or
 * ended (a replay is most useful after the session).
 */
export function createReplayService({
  sessions,
  replays,
}: {
  sessions: Pick<BrowserSessionStore, 'get'>;
  replays: SessionReplayStore;
}) {
  const sessionStart = async (teamId: string, id: string) => {
    const record = await sessions.get(id, teamId);
    if (record === undefined) throw sessionErrors.notFound();
    return record.createdAt.getTime();
  };
  const sinceStart = (at: number, start: number) => Math.max(0, Math.round(at - start));

  return {
    async pages(teamId: string, id: string, prefix: 'browser' | 'interact'): Promise<ReplayPages> {
      const start = await sessionStart(teamId, id);
      const pages = await replays.pages(id);
      return {
        success: true,
        pages: pages.map((page) => ({
          pageId: String(page.pageId),
          url: `/v2/${prefix}/${encodeURIComponent(id)}/replay/${page.pageId}`,
          pageUrl: page.pageUrl,
          startTimeMs: sinceStart(page.firstAt, start),
          endTimeMs: sinceStart(page.lastAt, start),
        })),
        pageCount: pages.length,
      };
    },

    async page(teamId: string, id: string, pageId: string): Promise<ReplayPage> {
      if (!PAGE_ID.test(pageId)) throw replayErrors.invalidPage();
      const start = await sessionStart(teamId, id);
      const chunks = await replays.page(id, Number(pageId));
      const first = chunks[0];
      if (first === undefined) throw replayErrors.notFound();
      const events = chunks.flatMap((chunk) => JSON.parse(chunk.eventsJson) as ReplayEvent[]);
      return {
        success: true,
        pageId: String(first.pageId),
        pageUrl: first.pageUrl,
        startTimeMs: sinceStart(Math.min(...chunks.map((chunk) => chunk.firstAt)), start),
        endTimeMs: sinceStart(Math.max(...chunks.map((chunk) => chunk.lastAt)), start),
        events,
      };
    },
  };
}

export type ReplayService = ReturnType<typeof createReplayService>;
