import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLog } from '../../../../server/platform/log/log';
import { changeTrackingFormat } from '../../../../server/scrape/enrich/formats/change-tracking-format';
import { StoreUnavailableError, type Database } from '../../../../server/platform/store/database';
import { createEmbeddedDatabase } from '../../../../server/platform/store/embedded/create-embedded-database';
import {
  createChangeSnapshotStore,
  type ChangeSnapshotStore,
} from '../../../../server/platform/store/stores/change-snapshot-store';

let database: Database;
let snapshots: ChangeSnapshotStore;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-tracking-'));
  database = await createEmbeddedDatabase({ dir, log: silentLog });
  snapshots = createChangeSnapshotStore(database);
  await snapshots.ensureIndexes();
});
afterAll(async () => {
  await database.close();
  await rm(dir, { recursive: true, force: true });
});

let clock = Date.parse('2026-01-01T00:00:00.000Z');
const track = (fields: {
  teamId?: string;
  markdown?: string;
  statusCode?: number;
  keep?: boolean;
  json?: unknown;
}) =>
  changeTrackingFormat({
    snapshots,
    log: silentLog,
    teamId: fields.teamId ?? 'team-a',
    url: 'https://shop.test/prices',
    tag: null,
    modes: ['git-diff', 'json'],
    markdown: fields.markdown ?? 'Mug 4 EUR',
    statusCode: fields.statusCode ?? 200,
    json: fields.json,
    keep: fields.keep ?? true,
    now: new Date((clock += 1000)),
  });

describe('changeTrackingFormat', () => {
  it('compares with the latest earlier version of the same team only, ignoring whitespace', async () => {
    expect((await track({})).value?.changeStatus).toBe('new');
    expect((await track({ teamId: 'team-b' })).value?.changeStatus).toBe('new');
    const same = await track({ markdown: 'Mug   4\nEUR' });
    expect(same.value).toEqual({
      previousScrapeAt: '2026-01-01T00:00:01.000Z',
      changeStatus: 'same',
      visibility: 'visible',
    });
    const changed = await track({ markdown: 'Mug 5 EUR', json: { mug: 5 } });
    expect(changed.value?.changeStatus).toBe('changed');
    expect(changed.value?.diff?.text).toContain('+Mug 5 EUR');
    expect(changed.value?.json).toEqual({ mug: { previous: null, current: 5 } });
    expect((await track({ statusCode: 404, markdown: 'Gone' })).value?.changeStatus).toBe('removed');
  });

  it('keeps nothing under zero data retention', async () => {
    await track({ teamId: 'team-zdr', keep: false });
    expect((await track({ teamId: 'team-zdr' })).value?.changeStatus).toBe('new');
  });

  it('reports the page as new with a warning while the store is down', async () => {
    const down = {
      ...snapshots,
      latest: () => Promise.reject(new StoreUnavailableError('connection refused')),
    } as ChangeSnapshotStore;
    const result = await changeTrackingFormat({
      snapshots: down,
      log: silentLog,
      teamId: 'team-a',
      url: 'https://shop.test/prices',
      tag: null,
      modes: [],
      markdown: 'x',
      statusCode: 200,
      json: undefined,
      keep: true,
    });
    expect(result.value?.changeStatus).toBe('new');
    expect(result.warning).toMatch(/database is unavailable/);
  });
});
