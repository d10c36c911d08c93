import { randomUUID } from 'node:crypto';
import type { LlmProvider } from '../../platform/llm';
import type { Log } from '../../platform/log';
import type {
  MonitorCheckStore,
  StoredMonitorCheck,
  StoredMonitorPage,
  MonitorSummaryCounts,
  StoredMonitor,
  TeamStore,
  WebhookOutboxStore,
} from '../../platform/store';
import { ensureCreditsLeft } from '../../platform/teams';
import { judgeChange } from './judge-change';
import type { MonitorNotifier } from './monitor-notifications';
import { checkView, emptySummary, pageView } from './monitor-view';
import { enqueueMonitorEvent } from './monitor-webhooks';
import { historyTag, readTargets, runnableTarget } from './monitor-targets';
import {
  type ObserveDeps,
  type ObservedPage,
  type TargetObservation,
  observeTarget,
} from './observe-targets';

export interface CheckRunnerDeps extends ObserveDeps {
  checks: MonitorCheckStore;
  teams: TeamStore;
  outbox: WebhookOutboxStore;
  llm: LlmProvider | undefined;
  log: Log;
  /** E-mail and Slack notifications of a check with news (monitor-notifications.ts). */
  notifier?: MonitorNotifier | undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Changed pages judged in one check at most: each is a model call. */
const MAX_JUDGED_PAGES = 50;

export const NO_LLM_JUDGE_WARNING =
  'judgeEnabled needs a language model (LLM_BASE_URL), which this server has none of: changes are reported without a judgment.';

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Counts of each page status. */
export function summarize(pages: readonly { status: keyof Omit<MonitorSummaryCounts, 'totalPages'> }[]) {
  const summary = emptySummary();
  for (const page of pages) summary[page.status] += 1;
  summary.totalPages = pages.length;
  return summary;
}

/**
 * One check of a monitor, already claimed (the caller holds the lease and stored `check` as
 * running): every target observed, the pages the previous check saw that this one does not
 * reported `removed` (crawl and search targets), changed pages judged against the goal, the pages
 * stored, the check finished and its webhook events queued. Never throws for a target's failure:
 * the check is then `partial` or `failed` with the reason.
 */
export async function runMonitorCheck(
  monitor: StoredMonitor,
  check: StoredMonitorCheck,
  signal: AbortSignal,
  deps: CheckRunnerDeps,
): Promise<StoredMonitorCheck | undefined> {
  const { checks, log } = deps;
  try {
    await ensureCreditsLeft(deps.teams, monitor.teamId);
  } catch (err) {
    return checks.finish(check._id, {
      status: 'skipped_no_credits',
      summary: emptySummary(),
      targetResults: [],
      error: errorMessage(err),
    });
  }
  const previous = await checks.latestFinished(monitor._id);
  const previousPages = previous === undefined ? [] : await checks.allPages(previous._id);
  const previousScrapeIds = new Map(
    previousPages.flatMap((page) =>
      page.scrapeId === undefined ? [] : [[`${page.targetId} ${page.url}`, page.scrapeId]],
    ),
  );
  const warnings: string[] = [];
  const observed: ObservedPage[] = [];
  const outcomes: StoredMonitorCheck['targetResults'] = [];
  const seen: NonNullable<StoredMonitorCheck['seen']> = [];
  let credits = 0;
  let failedTargets = 0;
  const targets = readTargets(monitor.targets);
  for (const target of targets) {
    let observation: TargetObservation;
    try {
      observation = await observeTarget(
        runnableTarget(target, monitor._id),
        { teamId: monitor.teamId, tag: historyTag(monitor._id, target.id), signal, since: check.startedAt },
        deps,
      );
    } catch (err) {
      failedTargets += 1;
      log.warn('monitor target failed', {
        monitorId: monitor._id,
        targetId: target.id,
        error: errorMessage(err),
      });
      outcomes.push({ targetId: target.id, type: target.type, error: errorMessage(err) });
      // What the previous check saw is still the base for the next one: a failed target removes nothing.
      const before = previous?.seen?.find((entry) => entry.targetId === target.id);
      if (before !== undefined) seen.push(before);
      continue;
    }
    credits += observation.credits;
    outcomes.push(observation.outcome);
    const urls = new Set(observation.pages.map((page) => page.url));
    observed.push(...observation.pages);
    if (target.type !== 'scrape') {
      const before = previous?.seen?.find((entry) => entry.targetId === target.id)?.urls ?? [];
      for (const url of before) {
        if (!urls.has(url)) observed.push({ targetId: target.id, url, status: 'removed' });
      }
    }
    seen.push({
      targetId: target.id,
      urls: observation.pages.filter((page) => page.status !== 'removed').map((page) => page.url),
    });
  }

  const judgments = await judge(monitor, observed, deps, warnings);
  const now = new Date();
  const expiresAt = new Date(check.createdAt.getTime() + monitor.retentionDays * DAY_MS);
  const pages: StoredMonitorPage[] = observed.map((page, order) => {
    const previousScrapeId = previousScrapeIds.get(`${page.targetId} ${page.url}`);
    const judgment = judgments.get(page);
    const metadata = {
      ...(page.title === undefined ? {} : { title: page.title }),
      ...(page.previousScrapeAt === undefined ? {} : { previousScrapeAt: page.previousScrapeAt }),
    };
    return {
      _id: randomUUID(),
      checkId: check._id,
      monitorId: monitor._id,
      teamId: monitor.teamId,
      order,
      targetId: page.targetId,
      url: page.url,
      status: page.status,
      ...(page.statusCode === undefined ? {} : { statusCode: page.statusCode }),
      ...(page.error === undefined ? {} : { error: page.error }),
      ...(page.scrapeId === undefined ? {} : { scrapeId: page.scrapeId }),
      ...(previousScrapeId === undefined ? {} : { previousScrapeId }),
      ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
      ...(page.diff === undefined ? {} : { diff: page.diff }),
      ...(page.snapshot === undefined ? {} : { snapshot: page.snapshot }),
      ...(judgment === undefined ? {} : { judgment }),
      createdAt: now,
      expiresAt,
    };
  });
  await checks.addPages(pages);
  const summary = summarize(pages);
  const allFailed = targets.length > 0 && failedTargets === targets.length;
  const status =
    allFailed || (pages.length > 0 && summary.error === pages.length)
      ? 'failed'
      : failedTargets > 0 || summary.error > 0
        ? 'partial'
        : 'completed';
  const failures = outcomes.flatMap((outcome) =>
    outcome.error === undefined ? [] : [`${outcome.targetId}: ${outcome.error}`],
  );
  const finished = await checks.finish(check._id, {
    status,
    summary,
    targetResults: outcomes,
    actualCredits: credits,
    seen,
    ...(failures.length === 0 ? {} : { error: failures.join('; ') }),
    ...(warnings.length === 0 ? {} : { warnings }),
  });
  if (finished !== undefined) {
    await sendEvents(monitor, finished, pages, deps);
    await deps.notifier?.notifyCheck(monitor, finished, pages);
  }
  return finished;
}

async function judge(
  monitor: StoredMonitor,
  pages: readonly ObservedPage[],
  { llm, log }: CheckRunnerDeps,
  warnings: string[],
): Promise<Map<ObservedPage, unknown>> {
  const judgments = new Map<ObservedPage, unknown>();
  if (!monitor.judgeEnabled || monitor.goal === undefined) return judgments;
  const changed = pages.filter((page) => page.status === 'changed');
  if (changed.length === 0) return judgments;
  if (llm === undefined) {
    warnings.push(NO_LLM_JUDGE_WARNING);
    return judgments;
  }
  if (changed.length > MAX_JUDGED_PAGES) {
    warnings.push(`Only the first ${MAX_JUDGED_PAGES} of ${changed.length} changed pages were judged.`);
  }
  let failed = 0;
  for (const page of changed.slice(0, MAX_JUDGED_PAGES)) {
    const diff = page.diff?.text ?? JSON.stringify(page.diff?.json ?? {});
    try {
      judgments.set(page, await judgeChange(llm, { goal: monitor.goal, url: page.url, diff }));
    } catch (err) {
      failed += 1;
      log.warn('monitor judgment failed', {
        monitorId: monitor._id,
        url: page.url,
        error: errorMessage(err),
      });
    }
  }
  if (failed > 0)
    warnings.push(`The model could not judge ${failed} changed page(s); they have no judgment.`);
  return judgments;
}

async function sendEvents(
  monitor: StoredMonitor,
  check: StoredMonitorCheck,
  pages: readonly StoredMonitorPage[],
  { outbox, log }: CheckRunnerDeps,
): Promise<void> {
  const common = {
    outbox,
    webhook: monitor.webhook,
    teamId: monitor.teamId,
    monitorId: monitor._id,
    checkId: check._id,
  };
  try {
    for (const page of pages) {
      if (page.status === 'same') continue;
      await enqueueMonitorEvent({
        ...common,
        event: 'monitor.page',
        key: `page:${page._id}`,
        data: [pageView(page)],
      });
    }
    await enqueueMonitorEvent({
      ...common,
      event: 'monitor.check.completed',
      key: 'completed',
      data: [checkView(check)],
      success: check.status !== 'failed',
    });
  } catch (err) {
    log.warn('could not queue monitor webhook events', { monitorId: monitor._id, error: errorMessage(err) });
  }
}
