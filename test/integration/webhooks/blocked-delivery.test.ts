import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgress } from '../../../server/platform/egress/create-egress';
import { silentLog } from '../../../server/platform/log/log';
import { createWebhookSender } from '../../../server/platform/webhooks/create-webhook-sender';
import { startInternalService } from '../../helpers/internal-service';
import { waitUntil } from '../../helpers/start-test-tabhive';
import { stubLookup } from '../../helpers/stub-lookup';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

const embedded = useEmbeddedStores();
let internal: Awaited<ReturnType<typeof startInternalService>>;

beforeAll(async () => {
  internal = await startInternalService();
});
afterAll(() => internal?.close());

describe('webhook delivery through the egress', () => {
  it('drops a delivery whose name now resolves to a private address, at once and without connecting', async () => {
    // Submission let it through (the name did not resolve then, or resolved elsewhere): the
    // egress checks every delivery again.
    const egress = createEgress({
      allowPrivateNetworks: false,
      lookup: stubLookup({ 'hooks.example.com': ['93.184.215.14', '127.0.0.1'] }).lookup,
    });
    const sender = createWebhookSender({
      outbox: embedded.stores.webhookOutbox,
      teams: embedded.stores.teams,
      egress,
      log: silentLog,
      retryDelaysMs: [50, 50],
    });
    await embedded.stores.webhookOutbox.enqueue({
      _id: 'job-1:started',
      teamId: 'team-1',
      url: `http://hooks.example.com:${internal.port}/hook`,
      headers: {},
      body: '{"type":"crawl.started"}',
    });
    sender.start();
    try {
      await waitUntil(
        async () => (await embedded.stores.webhookOutbox.get('job-1:started'))?.state === 'dead',
        10_000,
        'the delivery to be dropped',
      );
    } finally {
      sender.stop();
      await egress.close();
    }
    const delivery = await embedded.stores.webhookOutbox.get('job-1:started');
    expect(delivery).toMatchObject({ attempts: 1, lastError: expect.stringContaining('127.0.0.1') });
    expect(internal.takeCounts()).toEqual({ connections: 0, requests: [] });
  });
});
