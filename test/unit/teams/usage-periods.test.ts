import { describe, expect, it } from 'vitest';
import type { UsageMonth } from '../../../server/platform/store/stores/usage-month-store';
import { maskApiKey } from '../../../server/platform/store/stores/usage-attribution';
import { usagePeriods } from '../../../server/platform/teams/usage-reports';

const month = (value: string, apiKey: string, credits: number, tokens = 0): UsageMonth => ({
  _id: `t|${value}|${apiKey}`,
  teamId: 't',
  month: value,
  apiKey,
  credits,
  tokens,
});

describe('usage periods', () => {
  const now = new Date('2027-01-10T12:00:00Z');

  it('lists the current month at 0 for a team that used nothing, and no key periods', () => {
    expect(usagePeriods([], 'credits', false, now)).toEqual([
      { startDate: '2027-01-01T00:00:00.000Z', endDate: '2027-01-31T23:59:59.999Z', used: 0 },
    ]);
    expect(usagePeriods([], 'credits', true, now)).toEqual([]);
  });

  it('sums keys per month across a year boundary and leaves out months that came to nothing', () => {
    const months = [
      month('2026-12', 'fc-…aaaa', 4),
      month('2026-12', '', 1),
      month('2026-11', 'fc-…aaaa', 0),
      month('2027-01', 'fc-…bbbb', 2),
    ];
    expect(usagePeriods(months, 'credits', false, now).map((p) => [p.startDate.slice(0, 7), p.used])).toEqual(
      [
        ['2026-12', 5],
        ['2027-01', 2],
      ],
    );
    expect(
      usagePeriods(months, 'credits', true, now).map((p) => [p.startDate.slice(0, 7), p.apiKey, p.used]),
    ).toEqual([
      ['2026-12', 'fc-…aaaa', 4],
      ['2026-12', 'unknown', 1],
      ['2027-01', 'fc-…bbbb', 2],
    ]);
    // February of a leap year ends on the 29th (listed after the current month, January 2027).
    expect(usagePeriods([month('2028-02', '', 1)], 'credits', false, now).at(-1)?.endDate).toBe(
      '2028-02-29T23:59:59.999Z',
    );
  });

  it('names a key by its prefix and last four characters only', () => {
    expect(maskApiKey('fc-0123456789abcdef0123456789abcdef')).toBe('fc-…cdef');
    expect(maskApiKey('sk-live-abcdefghijkl')).toBe('sk-…ijkl');
    expect(maskApiKey('short')).toBe('…rt');
  });
});
