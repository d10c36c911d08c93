import { MonitorNotificationInput } from '../../../shared/api/v2/monitor-request';
import type { Log } from '../../platform/log';
import type {
  EmailSubscriptionStore,
  StoredEmailSubscription,
  StoredMonitor,
  StoredMonitorCheck,
  StoredMonitorPage,
  WebhookOutboxStore,
} from '../../platform/store';
import { changesMail, confirmationMail, hasNews, slackMessage } from './notification-messages';

/**
 * Monitor notifications that are sent (docs/monitors.md#notifications): e-mail to recipients who
 * confirmed (double opt-in, with an unsubscribe link in every mail), and a Slack-compatible
 * incoming webhook. Both go through the durable webhook outbox, keyed by check and recipient, so a
 * retry never makes a second message and a restart loses none.
 */
export interface MonitorNotifier {
  /** Mail can be sent (SMTP_URL is set). */
  readonly mailEnabled: boolean;
  /** Makes the monitor's recipients' subscriptions, queueing an opt-in mail for each new one. */
  reconcile(monitor: StoredMonitor): Promise<StoredEmailSubscription[]>;
  /** The opt-in state of each configured recipient, in Firecrawl's shape. */
  subscriptionsOf(monitor: StoredMonitor): Promise<RecipientSubscriptionView[]>;
  /** Queues the e-mails and the Slack message about a finished check with news. */
  notifyCheck(
    monitor: StoredMonitor,
    check: StoredMonitorCheck,
    pages: readonly StoredMonitorPage[],
  ): Promise<void>;
  /** A recipient's confirm or unsubscribe link was followed; undefined for an unknown token. */
  answer(token: string, status: 'confirmed' | 'unsubscribed'): Promise<StoredEmailSubscription | undefined>;
  removeMonitor(monitorId: string): Promise<void>;
}

/** Firecrawl's MonitorEmailRecipientSubscription. */
export interface RecipientSubscriptionView {
  email: string;
  status: 'pending' | 'confirmed' | 'unsubscribed';
  source: 'team' | 'opt_in' | 'legacy';
  confirmationEmailSent: boolean;
}

/** The links a recipient follows, served by Tabhive (server/api/routes/notification-routes.ts). */
export const CONFIRM_PATH = '/v2/notifications/email/confirm';
export const UNSUBSCRIBE_PATH = '/v2/notifications/email/unsubscribe';

/** The stored `notification` as the request schema reads it; a malformed one is none. */
export function notificationOf(monitor: StoredMonitor): MonitorNotificationInput | undefined {
  if (monitor.notification === undefined || monitor.notification === null) return undefined;
  const parsed = MonitorNotificationInput.safeParse(monitor.notification);
  return parsed.success ? parsed.data : undefined;
}

const emailRecipients = (monitor: StoredMonitor): string[] => {
  const email = notificationOf(monitor)?.email;
  return email?.enabled === true ? email.recipients.map((address) => address.toLowerCase()) : [];
};

export function createMonitorNotifier({
  subscriptions,
  outbox,
  mailEnabled,
  linkBase,
  log,
}: {
  subscriptions: EmailSubscriptionStore;
  outbox: WebhookOutboxStore;
  mailEnabled: boolean;
  /** The base of the links in mails: PUBLIC_URL, or this server's own address. */
  linkBase: string;
  log: Log;
}): MonitorNotifier {
  const link = (path: string, token: string) => `${linkBase}${path}?token=${encodeURIComponent(token)}`;
  const checkUrl = (monitor: StoredMonitor, check: StoredMonitorCheck) =>
    `${linkBase}/v2/monitor/${monitor._id}/checks/${check._id}`;

  const mail = (id: string, teamId: string, message: ReturnType<typeof confirmationMail>) =>
    outbox.enqueue({
      _id: id,
      teamId,
      kind: 'email',
      url: `mailto:${message.to}`,
      headers: {},
      body: JSON.stringify(message),
    });

  return {
    mailEnabled,

    async reconcile(monitor) {
      const recipients = emailRecipients(monitor);
      if (recipients.length === 0) return [];
      const { all } = await subscriptions.ensure(monitor.teamId, monitor._id, recipients);
      if (!mailEnabled) return all;
      // New recipients, and those added while no mail could be sent; the outbox key makes it one mail.
      for (const subscription of all.filter(
        (entry) => entry.status === 'pending' && !entry.confirmationEmailSent,
      )) {
        await mail(
          `monitor-optin:${subscription._id}`,
          monitor.teamId,
          confirmationMail({
            to: subscription.email,
            monitorName: monitor.name,
            confirmUrl: link(CONFIRM_PATH, subscription.token),
            unsubscribeUrl: link(UNSUBSCRIBE_PATH, subscription.token),
          }),
        );
        await subscriptions.markConfirmationSent(subscription._id);
        subscription.confirmationEmailSent = true;
      }
      return all;
    },

    async subscriptionsOf(monitor) {
      const recipients = new Set(emailRecipients(monitor));
      if (recipients.size === 0) return [];
      const stored = await subscriptions.forMonitor(monitor._id);
      return stored
        .filter((subscription) => recipients.has(subscription.email))
        .map((subscription) => ({
          email: subscription.email,
          status: subscription.status,
          source: 'opt_in' as const,
          confirmationEmailSent: subscription.confirmationEmailSent,
        }));
    },

    async notifyCheck(monitor, check, pages) {
      if (!hasNews(check.summary)) return;
      const notification = notificationOf(monitor);
      try {
        const recipients = new Set(emailRecipients(monitor));
        if (mailEnabled && recipients.size > 0) {
          const confirmed = (await subscriptions.forMonitor(monitor._id)).filter(
            (subscription) => subscription.status === 'confirmed' && recipients.has(subscription.email),
          );
          for (const subscription of confirmed) {
            await mail(
              `monitor:${check._id}:email:${subscription.email}`,
              monitor.teamId,
              changesMail({
                to: subscription.email,
                monitorName: monitor.name,
                summary: check.summary,
                pages,
                includeDiffs: notification?.email?.includeDiffs === true,
                checkUrl: checkUrl(monitor, check),
                unsubscribeUrl: link(UNSUBSCRIBE_PATH, subscription.token),
              }),
            );
          }
        }
        const slack = notification?.slack;
        if (slack !== undefined && slack.enabled) {
          await outbox.enqueue({
            _id: `monitor:${check._id}:slack`,
            teamId: monitor.teamId,
            kind: 'slack',
            url: slack.webhookUrl,
            headers: {},
            body: JSON.stringify(
              slackMessage({
                monitorName: monitor.name,
                summary: check.summary,
                pages,
                checkUrl: checkUrl(monitor, check),
              }),
            ),
          });
        }
      } catch (err) {
        log.warn('could not queue monitor notifications', {
          monitorId: monitor._id,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    },

    answer: (token, status) => subscriptions.setStatus(token, status),

    async removeMonitor(monitorId) {
      await subscriptions.removeForMonitor(monitorId);
    },
  };
}
