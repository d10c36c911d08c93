import { randomBytes } from 'node:crypto';
import { insertIfAbsent, type Collection, type Database, type StoredDocument } from '../database';

/** Firecrawl's per-recipient opt-in states (MonitorEmailRecipientSubscription). */
export type EmailSubscriptionStatus = 'pending' | 'confirmed' | 'unsubscribed';

/**
 * One recipient of one monitor's e-mail: double opt-in (pending until the recipient follows the
 * confirmation link) and unsubscribe. `_id` is `<monitorId>|<address>`; `token` is the secret in
 * the recipient's confirm and unsubscribe links, so a link answers for that recipient alone.
 */
export interface StoredEmailSubscription extends StoredDocument {
  teamId: string;
  monitorId: string;
  /** Lower-cased. */
  email: string;
  status: EmailSubscriptionStatus;
  token: string;
  /** The confirmation e-mail was queued (it goes out through the outbox). */
  confirmationEmailSent: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const keyOf = (monitorId: string, email: string) => `${monitorId}|${email.toLowerCase()}`;

export function createEmailSubscriptionStore(database: Database) {
  const subscriptions: Collection<StoredEmailSubscription> = database.collection('email_subscriptions');
  return {
    async ensureIndexes() {
      await subscriptions.createIndex({ name: 'token', keys: { token: 1 }, unique: true });
      await subscriptions.createIndex({ name: 'monitor', keys: { monitorId: 1 } });
    },

    /**
     * The subscriptions of these addresses to the monitor, each added as `pending` when new (an
     * address that unsubscribed stays unsubscribed). `added` lists the ones this call created.
     */
    async ensure(teamId: string, monitorId: string, emails: readonly string[], now = new Date()) {
      const added: StoredEmailSubscription[] = [];
      const all: StoredEmailSubscription[] = [];
      for (const email of [...new Set(emails.map((address) => address.toLowerCase()))]) {
        const fresh: StoredEmailSubscription = {
          _id: keyOf(monitorId, email),
          teamId,
          monitorId,
          email,
          status: 'pending',
          token: randomBytes(24).toString('base64url'),
          confirmationEmailSent: false,
          createdAt: now,
          updatedAt: now,
        };
        if (await insertIfAbsent(subscriptions, fresh)) {
          added.push(fresh);
          all.push(fresh);
        } else {
          const existing = await subscriptions.findOne({ _id: fresh._id });
          if (existing !== undefined) all.push(existing);
        }
      }
      return { added, all };
    },

    async markConfirmationSent(id: string, now = new Date()) {
      await subscriptions.updateOne({ _id: id }, { $set: { confirmationEmailSent: true, updatedAt: now } });
    },

    forMonitor: (monitorId: string) => subscriptions.find({ monitorId }, { sort: { createdAt: 1 } }),

    byToken: (token: string) => subscriptions.findOne({ token }),

    /**
     * Confirms a pending subscription, or unsubscribes one; returns it as it is now, or undefined
     * for an unknown token. Confirming an unsubscribed address does nothing: it opted out.
     */
    async setStatus(token: string, status: 'confirmed' | 'unsubscribed', now = new Date()) {
      const filter = status === 'confirmed' ? { token, status: 'pending' } : { token };
      const updated = await subscriptions.findOneAndUpdate(filter, { $set: { status, updatedAt: now } });
      return updated ?? subscriptions.findOne({ token });
    },

    async removeForMonitor(monitorId: string) {
      return (await subscriptions.deleteMany({ monitorId })).deleted;
    },
  };
}

export type EmailSubscriptionStore = ReturnType<typeof createEmailSubscriptionStore>;
