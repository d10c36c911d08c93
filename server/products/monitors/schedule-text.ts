/**
 * A schedule in words as cron, or an error message that says what is understood. Understood:
 * "every N seconds|minutes|hours|days" (N must divide the next unit evenly, so the runs are
 * evenly spaced), "every second|minute|hour|day", "hourly", "daily", "weekly", "monthly",
 * "daily at 9:00", "every day at 9am", "every monday at 10:00", "every weekday at 8:30",
 * "weekdays at 8:30", "every weekend at 10:00", "every monday and friday at 7:15 pm".
 */
export function scheduleTextToCron(text: string): { cron: string } | { error: string } {
  const words = text
    .toLowerCase()
    .trim()
    .replace(/[,]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^run /, '')
    .replace(/^once /, '');
  return simple(words) ?? interval(words) ?? atTime(words) ?? { error: unknown(text) };
}

const unknown = (text: string) =>
  `Could not read the schedule "${text}". Use forms such as "every 15 minutes", "every 30 seconds", ` +
  '"hourly", "daily at 9:00", "every monday at 10:00", "weekdays at 8:30", or give a cron expression.';

function simple(words: string): { cron: string } | undefined {
  const named: Record<string, string> = {
    'every second': '* * * * * *',
    'every minute': '* * * * *',
    'every hour': '0 * * * *',
    hourly: '0 * * * *',
    'every day': '0 0 * * *',
    daily: '0 0 * * *',
    'every week': '0 0 * * 1',
    weekly: '0 0 * * 1',
    'every month': '0 0 1 * *',
    monthly: '0 0 1 * *',
  };
  const cron = named[words];
  return cron === undefined ? undefined : { cron };
}

const UNITS: Record<string, { per: number; cron: (n: number) => string }> = {
  second: { per: 60, cron: (n) => `*/${n} * * * * *` },
  minute: { per: 60, cron: (n) => `*/${n} * * * *` },
  hour: { per: 24, cron: (n) => `0 */${n} * * *` },
  day: { per: Number.POSITIVE_INFINITY, cron: (n) => `0 0 */${n} * *` },
};

function interval(words: string): { cron: string } | { error: string } | undefined {
  const match = /^every (\d+) (second|minute|hour|day)s?$/.exec(words);
  if (match === null) return undefined;
  const n = Number(match[1]);
  const unit = match[2] as keyof typeof UNITS;
  const { per, cron } = UNITS[unit]!;
  if (n === 1) return { cron: cron(1).replace('*/1', '*') };
  if (unit === 'day') {
    if (n > 31) return { error: 'Schedules in days go up to "every 31 days"; use a cron expression beyond.' };
    return { cron: cron(n) };
  }
  if (n < 1 || n >= per || per % n !== 0) {
    return {
      error:
        `"every ${n} ${unit}s" does not divide ${unit === 'hour' ? 'a day' : `an ${unit === 'second' ? 'minute' : 'hour'}`} ` +
        'evenly, so its runs could not be evenly spaced; pick a divisor or give a cron expression.',
    };
  }
  return { cron: cron(n) };
}

const DAYS: Record<string, number> = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
};

function atTime(words: string): { cron: string } | { error: string } | undefined {
  const match = /^(.*?) ?\bat (\d{1,2})(?::(\d{2}))? ?(am|pm)?$/.exec(words);
  if (match === null) {
    // "every monday", "weekdays": at midnight.
    const days = words === '' ? undefined : dayField(words);
    return days === undefined ? undefined : { cron: `0 0 * * ${days}` };
  }
  const days = dayField(match[1]!.trim());
  if (days === undefined) return undefined;
  let hour = Number(match[2]);
  const minute = Number(match[3] ?? '0');
  const half = match[4];
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return { error: `"${match[2]}${half}" is not a time of day.` };
    hour = (hour % 12) + (half === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return { error: `"${match[2]}:${match[3] ?? '00'}" is not a time of day.` };
  return { cron: `${minute} ${hour} * * ${days}` };
}

/** The day-of-week field for "daily", "every day", "every monday and friday", "weekdays" …, or undefined. */
function dayField(head: string): string | undefined {
  const text = head.replace(/^every /, '').replace(/^on /, '');
  if (['daily', 'day', ''].includes(text)) return '*';
  if (/^weekdays?$/.test(text)) return '1-5';
  if (/^weekends?$/.test(text)) return '0,6';
  const names = text.split(/ and | /).filter((part) => part !== '' && part !== 'and');
  if (names.length === 0) return undefined;
  const numbers: number[] = [];
  for (const name of names) {
    const day = DAYS[name.replace(/s$/, '')];
    if (day === undefined) return undefined;
    numbers.push(day);
  }
  return [...new Set(numbers)].sort((a, b) => a - b).join(',');
}
