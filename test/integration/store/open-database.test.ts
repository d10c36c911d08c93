import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLog } from '../../../server/platform/log/log';
import { StoreUnavailableError } from '../../../server/platform/store/database';
import { openDatabase } from '../../../server/platform/store/open-database';

describe('openDatabase', () => {
  it('opens the embedded store in DATA_DIR/db when no MongoDB URL is set', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-open-'));
    const database = await openDatabase({ mongodbUrl: undefined, dataDir, log: silentLog });
    expect(database.kind).toBe('embedded');
    await database.collection('jobs').insertOne({ _id: 'j' });
    await database.close();
    expect(await readdir(path.join(dataDir, 'db'))).toEqual(['jobs.db']);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('opens MongoDB when a URL is set, even while nothing answers there', async () => {
    // A port that was free a moment ago: connections are refused, as with a database not started yet.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const database = await openDatabase({
      mongodbUrl: `mongodb://127.0.0.1:${port}/tabhive`,
      dataDir: '/nonexistent',
      log: silentLog,
    });
    expect(database.kind).toBe('mongodb');
    await expect(database.collection('jobs').findOne({})).rejects.toBeInstanceOf(StoreUnavailableError);
    await database.close();
  });
});
