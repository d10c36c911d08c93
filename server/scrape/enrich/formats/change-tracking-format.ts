import type { Log } from '../../../platform/log';
import { StoreUnavailableError, type ChangeSnapshotStore } from '../../../platform/store';
import type { ChangeTracking } from '../../types';
import { gitDiff } from './git-diff';
import type { FormatOutcome } from './json-format';

export type { ChangeTracking } from '../../types';

/** Markdown compared with all whitespace removed, as Firecrawl does: reflowed text is not a change. */
const squeeze = (markdown: string) => markdown.replace(/\s+/g, '');

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Per key, `{ previous, current }` for every key whose value differs (docs/wire-contract.md §3.7, json mode). */
export function compareJson(
  previous: unknown,
  current: unknown,
): Record<string, { previous: unknown; current: unknown }> {
  if (!isPlainObject(previous) || !isPlainObject(current)) {
    return JSON.stringify(previous) === JSON.stringify(current) ? {} : { value: { previous, current } };
  }
  const changes: Record<string, { previous: unknown; current: unknown }> = {};
  for (const key of new Set([...Object.keys(previous), ...Object.keys(current)])) {
    if (JSON.stringify(previous[key]) !== JSON.stringify(current[key])) {
      changes[key] = { previous: previous[key] ?? null, current: current[key] ?? null };
    }
  }
  return changes;
}

/**
 * The changeTracking format: this scrape compared with the latest earlier one of the same team,
 * URL (as given) and tag. The new version is kept as the next comparison's base, unless the
 * caller asked for zero data retention. A database outage is not a failed scrape: the result then
 * says `new` and the warning explains.
 */
export async function changeTrackingFormat({
  snapshots,
  log,
  teamId,
  url,
  tag,
  modes,
  markdown,
  statusCode,
  json,
  keep,
  now = new Date(),
}: {
  snapshots: ChangeSnapshotStore;
  log: Log;
  teamId: string;
  url: string;
  tag: string | null;
  modes: ReadonlyArray<'json' | 'git-diff'>;
  markdown: string;
  statusCode: number;
  /** The values extracted for json mode. */
  json: unknown;
  keep: boolean;
  now?: Date;
}): Promise<FormatOutcome<ChangeTracking>> {
  try {
    const previous = await snapshots.latest({ teamId, url, tag, before: now });
    if (keep) {
      await snapshots.put({
        teamId,
        url,
        tag,
        scrapedAt: now,
        statusCode,
        markdown,
        ...(json === undefined ? {} : { json }),
      });
    }
    const changeStatus =
      previous === undefined
        ? 'new'
        : statusCode === 404
          ? 'removed'
          : squeeze(previous.markdown) === squeeze(markdown)
            ? 'same'
            : 'changed';
    const tracking: ChangeTracking = {
      previousScrapeAt: previous?.scrapedAt.toISOString() ?? null,
      changeStatus,
      visibility: 'visible',
    };
    if (changeStatus === 'changed' && previous !== undefined) {
      if (modes.includes('git-diff')) tracking.diff = gitDiff(previous.markdown, markdown);
      if (modes.includes('json')) tracking.json = compareJson(previous.json ?? {}, json ?? {});
    }
    return { value: tracking };
  } catch (err) {
    if (!(err instanceof StoreUnavailableError)) throw err;
    log.warn('change history unavailable; reporting the page as new', { error: err.message });
    return {
      value: { previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' },
      warning:
        'Change tracking could not read its history (the database is unavailable); the page is reported as new.',
    };
  }
}
