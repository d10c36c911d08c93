import { beforeEach, describe, expect, it } from 'vitest';
import { finishIfDone } from '../../../server/products/jobs/finish-job';
import type { Stores } from '../../../server/platform/store/create-stores';
import { DATABASE_BACKENDS, freshStores } from '../../helpers/database-backends';

describe.each(DATABASE_BACKENDS)('$kind database: finishing a job', (backend) => {
  describe.skipIf(!backend.available)(backend.kind, () => {
    const harness = backend.use();
    let stores: Stores;

    beforeEach(async () => {
      stores = await freshStores(harness);
    });

    it('sets creditsUsed to the sum of its pages, also when two instances finish it at once', async () => {
      await stores.jobs.create({ _id: 'job', teamId: 't', kind: 'batch', request: { version: 'v2' } });
      for (const [index, credits] of [1, 5, 1].entries()) {
        await stores.results.put({
          id: `page-${index}`,
          teamId: 't',
          jobId: 'job',
          sequence: index,
          document: { markdown: 'x', metadata: { creditsUsed: credits } },
        });
      }
      // The running counter lost an update (as `$inc` can across FerretDB instances): 2, not 7.
      await stores.jobs.count('job', { completed: 3, creditsUsed: 2 });

      await Promise.all([finishIfDone(stores, 'job'), finishIfDone(stores, 'job')]);

      expect(await stores.jobs.get('job')).toMatchObject({
        status: 'completed',
        completed: 3,
        creditsUsed: 7,
      });
    });
  });
});
