import { CronExpressionParser } from 'cron-parser';
import type { MonitorScheduleInput } from '../../../shared/api/v2/monitor-request';
import { monitorErrors } from './monitor-errors';
import { scheduleTextToCron } from './schedule-text';

/** A schedule as stored: cron (5 fields, or 6 with seconds first) in an IANA time zone. */
export interface MonitorSchedule {
  cron: string;
  timezone: string;
  /** The words it was given as, when it was. */
  text?: string;
}

/** Runs sampled to find a schedule's shortest gap and its runs per month. */
const SAMPLED_RUNS = 60;
const MONTH_MS = 30 * 24 * 60 * 60 * 1000;

/** Whether `timezone` is an IANA zone (or UTC) that this server's Intl knows. */
export function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

function parseCron(cron: string, timezone: string, from: Date) {
  return CronExpressionParser.parse(cron, { tz: timezone, currentDate: from, strict: false });
}

/** The first run of `schedule` strictly after `after`. */
export function nextRunAfter(schedule: Pick<MonitorSchedule, 'cron' | 'timezone'>, after: Date): Date {
  return parseCron(schedule.cron, schedule.timezone, after).next().toDate();
}

/** The next SAMPLED_RUNS runs after `from`, for the interval check and the monthly estimate. */
function sampleRuns(schedule: Pick<MonitorSchedule, 'cron' | 'timezone'>, from: Date): number[] {
  const expression = parseCron(schedule.cron, schedule.timezone, from);
  const runs: number[] = [];
  for (let i = 0; i < SAMPLED_RUNS && expression.hasNext(); i++) runs.push(expression.next().getTime());
  return runs;
}

/** About how many times a month the schedule runs. */
export function runsPerMonth(
  schedule: Pick<MonitorSchedule, 'cron' | 'timezone'>,
  from = new Date(),
): number {
  const runs = sampleRuns(schedule, from);
  if (runs.length < 2) return runs.length;
  const span = runs[runs.length - 1]! - runs[0]!;
  return span <= 0 ? 0 : Math.round(((runs.length - 1) * MONTH_MS) / span);
}

/**
 * The caller's schedule as stored, or a 400 saying what is wrong: exactly one of `cron` and
 * `text` (both only when the text means that cron), a known time zone, a cron of 5 or 6 fields
 * that has runs, and no two runs closer than `minIntervalSeconds`.
 */
export function normalizeSchedule(input: MonitorScheduleInput, minIntervalSeconds: number): MonitorSchedule {
  const { timezone } = input;
  if (!isTimeZone(timezone))
    throw monitorErrors.invalidSchedule(
      `Unknown time zone "${timezone}": use an IANA name such as "Europe/Paris" or "UTC"`,
    );
  let cron = input.cron?.trim().replace(/\s+/g, ' ');
  if (input.text !== undefined) {
    const read = scheduleTextToCron(input.text);
    if ('error' in read) throw monitorErrors.invalidSchedule(read.error);
    if (cron !== undefined && cron !== read.cron) {
      throw monitorErrors.invalidSchedule(
        `schedule.text "${input.text}" means "${read.cron}", not the schedule.cron given ("${cron}"); send one of them`,
      );
    }
    cron = read.cron;
  }
  if (cron === undefined) throw monitorErrors.invalidSchedule('schedule needs a cron expression or a text');
  const fields = cron.split(' ').length;
  if (fields !== 5 && fields !== 6) {
    throw monitorErrors.invalidSchedule(
      `Invalid cron "${cron}": give 5 fields (minute hour day month weekday) or 6 with seconds first`,
    );
  }
  let runs: number[];
  try {
    runs = sampleRuns({ cron, timezone }, new Date());
  } catch (err) {
    throw monitorErrors.invalidSchedule(
      `Invalid cron "${cron}": ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (runs.length === 0) throw monitorErrors.invalidSchedule(`The cron "${cron}" never runs`);
  const gaps = runs.slice(1).map((run, index) => run - runs[index]!);
  const shortest = Math.min(...gaps);
  if (gaps.length > 0 && shortest < minIntervalSeconds * 1000) {
    throw monitorErrors.invalidSchedule(
      `The schedule "${input.text ?? cron}" runs every ${shortest / 1000} s; this server's minimum interval is ` +
        `${minIntervalSeconds} s (MONITOR_MIN_INTERVAL_SECONDS)`,
    );
  }
  return { cron, timezone, ...(input.text === undefined ? {} : { text: input.text }) };
}
