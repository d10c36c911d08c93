import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { Log } from '../../platform/log';
import { PUBLIC_SCOPE, type ResultStore } from '../../platform/store';
import { seenAsAnyoneWould, type CapturedPage } from '../capture';
import type { DerivedPage } from '../derive';
import type { ScrapeDocument, ScrapeContext } from '../types';
import type { MapIndexSink, SearchIndexSink } from './page-indexes';
import { createRecentWrites } from './recent-writes';

/** What the emit stage reads of the scrape plan (scrape-plan.ts). */
export interface EmitPlan {
  readonly request: ScrapeRequestV2;
  readonly teamId: string;
  /** Keep the result for `GET /v2/scrape/:id` (jobs keep theirs themselves). */
  readonly keepResult: boolean;
  readonly onCapture: ScrapeContext['onCapture'];
  /**
   * The page may join the map and search indexes: it is content of its own, the caller allows
   * keeping it (no zeroDataRetention) and wants no personal data out (no redactPII).
   */
  readonly joinsMapIndex: boolean;
  readonly joinsSearchIndex: boolean;
}

export interface EmitDeps {
  /** Learns every scraped page (URL, title, description, links) for /map. */
  mapIndex?: MapIndexSink | undefined;
  /** The team's local search index, which every successful page joins unless the plan forbids it. */
  searchIndex?: SearchIndexSink | undefined;
  results: ResultStore;
  log: Log;
}

/**
 * The emit stage: what leaves the scrape besides its answer. The caller's `onCapture` and the map
 * index see the page once it is derived; the search index and the result store take it once it is
 * final. A cache hit is told to the indexes at most every so often (recent-writes.ts).
 */
export function createPageEmitter({ mapIndex, searchIndex, results, log }: EmitDeps) {
  const indexWrites = createRecentWrites();
  /** What the indexes would be told again on a hit: the team, the capture and how it was derived. */
  const recordedAs = (plan: EmitPlan, { entryId }: CapturedPage, { optionsKey }: DerivedPage) =>
    entryId === undefined ? undefined : `${plan.teamId}\n${entryId}\n${optionsKey}`;
  const due = (recorded: string | undefined, index: string) =>
    recorded === undefined || indexWrites.due(`${index}\n${recorded}`);

  return {
    seen(plan: EmitPlan, captured: CapturedPage, page: DerivedPage): void {
      const { capture } = captured;
      const { metadata, pageLinks, links } = page.derived;
      plan.onCapture?.(capture, pageLinks);
      // What anything of the team shaped (its browser state, node, headers, actions) is the team's.
      const shared = captured.scope === PUBLIC_SCOPE && seenAsAnyoneWould(plan.request);
      if (
        mapIndex !== undefined &&
        plan.joinsMapIndex &&
        capture.statusCode < 400 &&
        due(recordedAs(plan, captured, page), `map\n${shared}`)
      ) {
        void mapIndex.recordPage({
          url: capture.url,
          title: typeof metadata.title === 'string' ? metadata.title : undefined,
          description: typeof metadata.description === 'string' ? metadata.description : undefined,
          // Links come along when a crawl or the caller asked for them; extracting them only for the
          // index costs too much.
          links: pageLinks ?? links,
          teamId: plan.teamId,
          shared,
        });
      }
    },

    async keep(plan: EmitPlan, captured: CapturedPage, page: DerivedPage, document: ScrapeDocument) {
      const { capture } = captured;
      const { metadata, markdown } = page.derived;
      const recorded = recordedAs(plan, captured, page);
      if (
        searchIndex !== undefined &&
        plan.joinsSearchIndex &&
        capture.statusCode >= 200 &&
        capture.statusCode < 300 &&
        due(recorded, 'search')
      ) {
        await searchIndex
          .addPage({
            teamId: plan.teamId,
            url: capture.url,
            title: typeof metadata.title === 'string' ? metadata.title : '',
            description: typeof metadata.description === 'string' ? metadata.description : undefined,
            markdown: markdown ?? '',
          })
          .catch((err: unknown) => {
            if (recorded !== undefined) indexWrites.forget(`search\n${recorded}`);
            log.warn('could not add the page to the search index', { error: String(err) });
          });
      }
      if (plan.keepResult && plan.request.zeroDataRetention !== true) {
        await results
          .put({ id: document.metadata.scrapeId, teamId: plan.teamId, document })
          .catch((err: unknown) => log.warn('could not keep the scrape result', { error: String(err) }));
      }
    },
  };
}

export type PageEmitter = ReturnType<typeof createPageEmitter>;
