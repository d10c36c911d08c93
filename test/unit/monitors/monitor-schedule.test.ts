import { describe, expect, it } from 'vitest';
import { TabhiveError } from '../../../server/platform/errors/tabhive-error';
import { scheduledCheckId } from '../../../server/products/monitors/create-monitor-scheduler';
import {
  nextRunAfter,
  normalizeSchedule,
  runsPerMonth,
} from '../../../server/products/monitors/monitor-schedule';
import { scheduleTextToCron } from '../../../server/products/monitors/schedule-text';

describe('scheduleTextToCron', () => {
  it.each([
    ['every 15 minutes', '*/15 * * * *'],
    ['Every 30 seconds', '*/30 * * * * *'],
    ['every minute', '* * * * *'],
    ['every 1 minute', '* * * * *'],
    ['every 2 hours', '0 */2 * * *'],
    ['every 3 days', '0 0 */3 * *'],
    ['hourly', '0 * * * *'],
    ['daily', '0 0 * * *'],
    ['weekly', '0 0 * * 1'],
    ['monthly', '0 0 1 * *'],
    ['daily at 9:00', '0 9 * * *'],
    ['every day at 9am', '0 9 * * *'],
    ['every day at 12am', '0 0 * * *'],
    ['daily at 7:15 pm', '15 19 * * *'],
    ['every monday at 10:00', '0 10 * * 1'],
    ['every monday and friday at 7:30', '30 7 * * 1,5'],
    ['weekdays at 8:30', '30 8 * * 1-5'],
    ['every weekend at 10:00', '0 10 * * 0,6'],
    ['every sunday', '0 0 * * 0'],
    ['at 6:45', '45 6 * * *'],
  ])('reads "%s" as %s', (text, cron) => {
    expect(scheduleTextToCron(text)).toEqual({ cron });
  });

  it.each([
    ['every 7 minutes', 'evenly'],
    ['every 45 seconds', 'evenly'],
    ['every 5 hours', 'evenly'],
    ['daily at 25:00', 'not a time of day'],
    ['every monday at 13pm', 'not a time of day'],
    ['whenever', 'Could not read'],
    ['every blursday', 'Could not read'],
    ['', 'Could not read'],
  ])('explains why "%s" is not a schedule', (text, message) => {
    const read = scheduleTextToCron(text);
    expect('error' in read && read.error).toContain(message);
  });
});

const message = (work: () => unknown) => {
  try {
    work();
  } catch (err) {
    expect(err).toBeInstanceOf(TabhiveError);
    return JSON.stringify((err as TabhiveError).details);
  }
  throw new Error('expected a 400');
};

describe('normalizeSchedule', () => {
  it('keeps a cron, a text and its cron, and the time zone', () => {
    expect(normalizeSchedule({ cron: ' 0  9 * * 1-5 ', timezone: 'Asia/Tokyo' }, 60)).toEqual({
      cron: '0 9 * * 1-5',
      timezone: 'Asia/Tokyo',
    });
    expect(normalizeSchedule({ text: 'hourly', timezone: 'UTC' }, 60)).toEqual({
      cron: '0 * * * *',
      text: 'hourly',
      timezone: 'UTC',
    });
    expect(normalizeSchedule({ text: 'hourly', cron: '0 * * * *', timezone: 'UTC' }, 60).cron).toBe(
      '0 * * * *',
    );
  });

  it('refuses schedules that run more often than the minimum interval', () => {
    expect(message(() => normalizeSchedule({ text: 'every 30 seconds', timezone: 'UTC' }, 60))).toContain(
      'MONITOR_MIN_INTERVAL_SECONDS',
    );
    expect(message(() => normalizeSchedule({ cron: '*/5 * * * * *', timezone: 'UTC' }, 10))).toContain(
      'every 5 s',
    );
    expect(normalizeSchedule({ cron: '*/5 * * * * *', timezone: 'UTC' }, 5).cron).toBe('*/5 * * * * *');
  });

  it('refuses unknown time zones and malformed crons', () => {
    expect(
      message(() => normalizeSchedule({ cron: '0 * * * *', timezone: 'Europe/Atlantis' }, 60)),
    ).toContain('Unknown time zone');
    expect(message(() => normalizeSchedule({ cron: '0 * * *', timezone: 'UTC' }, 60))).toContain('5 fields');
    expect(message(() => normalizeSchedule({ cron: '99 * * * *', timezone: 'UTC' }, 60))).toContain(
      'Invalid cron',
    );
    expect(message(() => normalizeSchedule({ cron: '0 0 30 2 *', timezone: 'UTC' }, 60))).toContain('cron');
  });
});

describe('nextRunAfter and runsPerMonth', () => {
  it('evaluates the cron in the time zone, across a DST change', () => {
    const schedule = { cron: '0 9 * * *', timezone: 'Europe/Paris' };
    // Paris is UTC+1 in winter and UTC+2 in summer (clocks went forward on 2026-03-29).
    expect(nextRunAfter(schedule, new Date('2026-03-28T12:00:00Z')).toISOString()).toBe(
      '2026-03-29T07:00:00.000Z',
    );
    expect(nextRunAfter(schedule, new Date('2026-03-27T12:00:00Z')).toISOString()).toBe(
      '2026-03-28T08:00:00.000Z',
    );
    expect(
      nextRunAfter(
        { cron: '*/3 * * * * *', timezone: 'UTC' },
        new Date('2026-01-01T00:00:01Z'),
      ).toISOString(),
    ).toBe('2026-01-01T00:00:03.000Z');
  });

  it('estimates the runs of a month', () => {
    expect(runsPerMonth({ cron: '0 * * * *', timezone: 'UTC' })).toBe(720);
    expect(runsPerMonth({ cron: '0 0 * * *', timezone: 'UTC' })).toBe(30);
  });
});

describe('scheduledCheckId', () => {
  it('is the same for the same run on every instance and differs between runs', () => {
    const at = new Date('2026-05-01T10:00:00Z');
    const id = scheduledCheckId('m1', at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(scheduledCheckId('m1', new Date(at))).toBe(id);
    expect(scheduledCheckId('m1', new Date(at.getTime() + 1000))).not.toBe(id);
    expect(scheduledCheckId('m2', at)).not.toBe(id);
  });
});
