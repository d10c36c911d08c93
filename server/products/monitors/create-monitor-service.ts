import { randomUUID } from 'node:crypto';
import type {
  CreateMonitorRequest,
  MonitorCheckQuery,
  MonitorListQuery,
  UpdateMonitorRequest,
} from '../../../shared/api/v2/monitor-request';
import { errors } from '../../platform/errors';
import type { MonitorCheckStore, MonitorChanges, MonitorStore, StoredMonitor } from '../../platform/store';
import type { UrlPolicy } from '../../platform/url-policy';
import type { MonitorScheduler } from './create-monitor-scheduler';
import { monitorErrors } from './monitor-errors';
import { type MonitorSchedule, nextRunAfter, normalizeSchedule } from './monitor-schedule';
import { prepareTargets } from './monitor-targets';
import type { MonitorNotifier } from './monitor-notifications';
import { checkView, monitorView, pageView } from './monitor-view';
import { NO_LLM_JUDGE_WARNING } from './run-monitor-check';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const EMAIL_NOT_SENT_WARNING =
  'Email notifications are stored but not sent: this Tabhive server has no mail server (SMTP_URL). Use a webhook to be told of changes.';
export const EMAIL_PENDING_WARNING =
  'Recipients receive notifications once they confirm through the link e-mailed to them (emailRecipientSubscriptions says who has).';

export type MonitorView = ReturnType<typeof monitorView>;

/**
 * Monitors as the routes see them: create, read, change, delete, run now, and their checks. The
 * checks themselves run in the scheduler, on whichever instance claims them.
 */
export function createMonitorService({
  monitors,
  checks,
  scheduler,
  urlPolicy,
  minIntervalSeconds,
  hasLlm,
  notifier,
}: {
  monitors: MonitorStore;
  checks: MonitorCheckStore;
  scheduler: MonitorScheduler;
  urlPolicy?: UrlPolicy | undefined;
  /** MONITOR_MIN_INTERVAL_SECONDS: schedules whose runs come closer are refused. */
  minIntervalSeconds: number;
  hasLlm: boolean;
  /** E-mail opt-in and sending; without it, e-mail settings are stored only. */
  notifier?: MonitorNotifier | undefined;
}) {
  /** The team's monitor, or the 404 that an unknown, malformed or other team's id gets alike. */
  const own = async (teamId: string, id: string): Promise<StoredMonitor> => {
    const monitor = UUID.test(id) ? await monitors.get(teamId, id) : undefined;
    if (monitor === undefined) throw monitorErrors.monitorNotFound();
    return monitor;
  };

  const checkWebhook = async (webhook: { url: string } | null | undefined) => {
    if (webhook == null || urlPolicy === undefined) return;
    const verdict = await urlPolicy.check(new URL(webhook.url));
    if (!verdict.allowed && verdict.reason !== 'dns')
      throw errors.urlBlocked(`Webhook URL refused: ${verdict.message}`);
  };

  /** A Slack-compatible webhook is a caller's URL the server will post to: judged like `webhook`. */
  const slackHook = (notification: { slack?: { webhookUrl: string } | undefined } | null | undefined) =>
    notification?.slack === undefined ? undefined : { url: notification.slack.webhookUrl };

  /** What the caller should know about settings this server accepts but cannot honour. */
  const warningsOf = (monitor: StoredMonitor): string[] => {
    const warnings: string[] = [];
    const email = (
      monitor.notification as { email?: { enabled?: boolean; recipients?: string[] } } | undefined
    )?.email;
    if (email !== undefined && (email.enabled === true || (email.recipients ?? []).length > 0)) {
      warnings.push(notifier?.mailEnabled === true ? EMAIL_PENDING_WARNING : EMAIL_NOT_SENT_WARNING);
    }
    if (monitor.judgeEnabled && !hasLlm) warnings.push(NO_LLM_JUDGE_WARNING);
    if (monitor.judgeEnabled && monitor.goal === undefined) {
      warnings.push('judgeEnabled has no goal to judge changes against: set goal to get judgments.');
    }
    return warnings;
  };

  /** The monitor as clients read it, with its recipients' opt-in states when it has recipients. */
  const view = async (monitor: StoredMonitor) => {
    const subscriptions = notifier === undefined ? [] : await notifier.subscriptionsOf(monitor);
    return {
      ...monitorView(monitor),
      ...(subscriptions.length === 0 ? {} : { emailRecipientSubscriptions: subscriptions }),
    };
  };

  const scheduleFields = (schedule: MonitorSchedule) => ({
    cron: schedule.cron,
    timezone: schedule.timezone,
    scheduleText: schedule.text,
  });

  return {
    async create(teamId: string, request: CreateMonitorRequest) {
      const schedule = normalizeSchedule(request.schedule, minIntervalSeconds);
      const id = randomUUID();
      const targets = prepareTargets(request.targets, id);
      await checkWebhook(request.webhook);
      await checkWebhook(slackHook(request.notification));
      const now = new Date();
      const monitor: StoredMonitor = {
        _id: id,
        teamId,
        name: request.name,
        status: 'active',
        cron: schedule.cron,
        timezone: schedule.timezone,
        ...(schedule.text === undefined ? {} : { scheduleText: schedule.text }),
        targets,
        ...(request.webhook === undefined ? {} : { webhook: request.webhook }),
        ...(request.notification === undefined ? {} : { notification: request.notification }),
        retentionDays: request.retentionDays,
        ...(request.goal === undefined ? {} : { goal: request.goal }),
        judgeEnabled: request.judgeEnabled,
        nextRunAt: nextRunAfter(schedule, now),
        createdAt: now,
        updatedAt: now,
      };
      await monitors.insert(monitor);
      await notifier?.reconcile(monitor);
      return { monitor: await view(monitor), warnings: warningsOf(monitor) };
    },

    async list(teamId: string, query: MonitorListQuery) {
      return (await monitors.list(teamId, query)).map(monitorView);
    },

    async get(teamId: string, id: string) {
      const monitor = await own(teamId, id);
      return { monitor: await view(monitor), warnings: warningsOf(monitor) };
    },

    async update(teamId: string, id: string, request: UpdateMonitorRequest) {
      const existing = await own(teamId, id);
      const changes: MonitorChanges = {};
      if (request.name !== undefined) changes.name = request.name;
      if (request.retentionDays !== undefined) changes.retentionDays = request.retentionDays;
      if (request.judgeEnabled !== undefined) changes.judgeEnabled = request.judgeEnabled;
      if (request.goal !== undefined) changes.goal = request.goal ?? undefined;
      if (request.notification !== undefined) {
        await checkWebhook(slackHook(request.notification));
        changes.notification = request.notification ?? undefined;
      }
      if (request.webhook !== undefined) {
        await checkWebhook(request.webhook);
        changes.webhook = request.webhook ?? undefined;
      }
      if (request.targets !== undefined) changes.targets = prepareTargets(request.targets, id);
      let schedule: MonitorSchedule = { cron: existing.cron, timezone: existing.timezone };
      if (request.schedule !== undefined) {
        schedule = normalizeSchedule(request.schedule, minIntervalSeconds);
        Object.assign(changes, scheduleFields(schedule));
      }
      const status = request.status ?? existing.status;
      if (request.status !== undefined) changes.status = request.status;
      if (status === 'paused') changes.nextRunAt = null;
      else if (request.schedule !== undefined || existing.status === 'paused') {
        changes.nextRunAt = nextRunAfter(schedule, new Date());
      }
      const updated = await monitors.update(teamId, id, changes);
      if (updated === undefined) throw monitorErrors.monitorNotFound();
      if (request.notification !== undefined) await notifier?.reconcile(updated);
      return { monitor: await view(updated), warnings: warningsOf(updated) };
    },

    async remove(teamId: string, id: string) {
      await own(teamId, id);
      await monitors.remove(teamId, id);
      await checks.removeForMonitor(id);
      await notifier?.removeMonitor(id);
    },

    /**
     * A recipient followed the confirm or unsubscribe link of a monitor's e-mail: the address, and
     * its state now, or undefined for a token no subscription has.
     */
    async answerRecipient(token: string, status: 'confirmed' | 'unsubscribed') {
      if (notifier === undefined || token === '') return undefined;
      const subscription = await notifier.answer(token, status);
      return subscription === undefined
        ? undefined
        : { email: subscription.email, status: subscription.status };
    },

    async run(teamId: string, id: string) {
      await own(teamId, id);
      const check = await scheduler.runNow(teamId, id);
      if (check === undefined) throw monitorErrors.monitorNotFound();
      if (check === 'running') throw monitorErrors.checkRunning();
      return checkView(check);
    },

    async listChecks(teamId: string, id: string, query: MonitorListQuery) {
      await own(teamId, id);
      return (await checks.list(id, query)).map(checkView);
    },

    /** A check with one page of its pages; `nextSkip` when more pages follow. */
    async getCheck(teamId: string, id: string, checkId: string, query: MonitorCheckQuery) {
      await own(teamId, id);
      const check = UUID.test(checkId) ? await checks.get(id, checkId) : undefined;
      if (check === undefined) throw monitorErrors.checkNotFound();
      const [pages, total] = await Promise.all([
        checks.pagesOf(checkId, query),
        checks.countPages(checkId, query.status),
      ]);
      const reached = query.skip + pages.length;
      return {
        check: { ...checkView(check), pages: pages.map(pageView) },
        ...(pages.length > 0 && reached < total ? { nextSkip: reached } : {}),
      };
    },
  };
}

export type MonitorService = ReturnType<typeof createMonitorService>;
