import { randomUUID } from 'node:crypto';
import { insertIfAbsent, type Collection, type Database, type StoredDocument } from '../database';

export type DeliveryState = 'pending' | 'sending' | 'delivered' | 'dead';

/**
 * How a delivery goes out: a signed webhook POST (the default, also for documents stored before
 * kinds existed), a Slack-compatible incoming-webhook POST (unsigned), or an e-mail whose `body`
 * is the message (platform/notify/mail-message.ts) and whose `url` is `mailto:` the recipient.
 */
export type DeliveryKind = 'webhook' | 'slack' | 'email';

export interface WebhookDelivery extends StoredDocument {
  /** `_id` is the event's key (`<jobId>:page:<taskId>`): the same event is enqueued once. */
  teamId: string;
  kind?: DeliveryKind;
  url: string;
  headers: Record<string, string>;
  /** The exact JSON that is sent and signed, so every retry carries the same bytes. */
  body: string;
  state: DeliveryState;
  attempts: number;
  availableAt: Date;
  leaseToken?: string;
  leaseExpiresAt?: Date;
  lastError?: string;
  createdAt: Date;
  updatedAt: Date;
}

export type NewWebhookDelivery = Pick<
  WebhookDelivery,
  '_id' | 'teamId' | 'url' | 'headers' | 'body' | 'kind'
>;

/** Deliveries are kept this long after they were created, delivered or not. */
export const WEBHOOK_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * The durable webhook outbox: one document per event, claimed with a lease like page tasks, so a
 * delivery survives a restart and one that an instance was sending when it died is sent again.
 */
export function createWebhookOutboxStore(database: Database) {
  const outbox: Collection<WebhookDelivery> = database.collection('webhook_outbox');
  const holding = (id: string, leaseToken: string) => ({ _id: id, state: 'sending', leaseToken });
  const released = { leaseToken: true, leaseExpiresAt: true } as const;

  return {
    async ensureIndexes() {
      await outbox.createIndex({ name: 'claim', keys: { state: 1, availableAt: 1 } });
      await outbox.createIndex({ name: 'created', keys: { createdAt: 1 } });
    },

    /** Adds the event unless it is there already; returns whether it was added. */
    async enqueue(delivery: NewWebhookDelivery, now = new Date()): Promise<boolean> {
      return insertIfAbsent(outbox, {
        ...delivery,
        state: 'pending',
        attempts: 0,
        availableAt: now,
        createdAt: now,
        updatedAt: now,
      });
    },

    /** Deliveries not yet delivered nor given up, cluster-wide: the backlog (metrics). */
    countUndelivered: () => outbox.countDocuments({ state: { $in: ['pending', 'sending'] } }),

    /** Leases the oldest due delivery (pending and due, or sending with an expired lease). */
    claimDue({ leaseMs, now = new Date() }: { leaseMs: number; now?: Date }) {
      return outbox.findOneAndUpdate(
        {
          $or: [
            { state: 'pending', availableAt: { $lte: now } },
            { state: 'sending', leaseExpiresAt: { $lt: now } },
          ],
        },
        {
          $set: {
            state: 'sending',
            leaseToken: randomUUID(),
            leaseExpiresAt: new Date(now.getTime() + leaseMs),
            updatedAt: now,
          },
          $inc: { attempts: 1 },
        },
        { sort: { availableAt: 1 } },
      );
    },

    async markDelivered(id: string, leaseToken: string, now = new Date()) {
      const { matched } = await outbox.updateOne(holding(id, leaseToken), {
        $set: { state: 'delivered', updatedAt: now },
        $unset: released,
      });
      return matched === 1;
    },

    /** After a failed attempt: again at `retryAt`, or never (`dead`) when retryAt is undefined. */
    async markFailed(
      id: string,
      leaseToken: string,
      error: string,
      retryAt: Date | undefined,
      now = new Date(),
    ) {
      const { matched } = await outbox.updateOne(holding(id, leaseToken), {
        $set:
          retryAt === undefined
            ? { state: 'dead', lastError: error, updatedAt: now }
            : { state: 'pending', lastError: error, availableAt: retryAt, updatedAt: now },
        $unset: released,
      });
      return matched === 1;
    },

    get: (id: string) => outbox.findOne({ _id: id }),

    async purgeExpired(now = new Date()) {
      return (await outbox.deleteMany({ createdAt: { $lt: new Date(now.getTime() - WEBHOOK_RETENTION_MS) } }))
        .deleted;
    },
  };
}

export type WebhookOutboxStore = ReturnType<typeof createWebhookOutboxStore>;
