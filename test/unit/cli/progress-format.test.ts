import { describe, expect, it } from 'vitest';
import {
  createRateMeter,
  estimateSeconds,
  formatDuration,
  formatRate,
  progressText,
} from '../../../server/api/cli/tabhive/progress-format';

describe('formatDuration', () => {
  it('reads as seconds, minutes and seconds, or hours and minutes', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(7.4)).toBe('7s');
    expect(formatDuration(59.6)).toBe('1m 00s');
    expect(formatDuration(65)).toBe('1m 05s');
    expect(formatDuration(3599)).toBe('59m 59s');
    expect(formatDuration(3600 * 2 + 60 * 3 + 10)).toBe('2h 03m');
  });

  it('says -- when there is no estimate', () => {
    expect(formatDuration(undefined)).toBe('--');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('--');
    expect(formatDuration(-1)).toBe('--');
  });
});

describe('formatRate', () => {
  it('keeps two decimals below one page a second, one above', () => {
    expect(formatRate(0.25)).toBe('0.25');
    expect(formatRate(3.14159)).toBe('3.1');
    expect(formatRate(undefined)).toBe('--');
  });
});

describe('createRateMeter', () => {
  it('has no rate until a second has passed', () => {
    const meter = createRateMeter(10_000);
    meter.add(0, 0);
    meter.add(500, 3);
    expect(meter.rate()).toBeUndefined();
    meter.add(2_000, 10);
    expect(meter.rate()).toBe(5);
  });

  it('counts only the pages done while watching (a resumed job starts at its count)', () => {
    const meter = createRateMeter(10_000);
    meter.add(0, 400);
    meter.add(4_000, 420);
    expect(meter.rate()).toBe(5);
  });

  it('follows a change of pace within its window', () => {
    const meter = createRateMeter(10_000);
    for (let second = 0; second <= 20; second += 1) meter.add(second * 1000, second * 10);
    // From second 20 on, 1 page a second.
    for (let second = 21; second <= 40; second += 1) meter.add(second * 1000, 200 + (second - 20));
    expect(meter.rate()).toBeCloseTo(1, 1);
  });
});

describe('estimateSeconds', () => {
  it('divides what is left by the rate', () => {
    expect(estimateSeconds(10, 50, 4)).toBe(10);
    expect(estimateSeconds(50, 50, undefined)).toBe(0);
    expect(estimateSeconds(10, 50, undefined)).toBeUndefined();
    expect(estimateSeconds(10, 50, 0)).toBeUndefined();
  });
});

describe('progressText', () => {
  it('shows pages done/total, pages/s, the ETA and the status', () => {
    expect(progressText({ label: 'crawl', done: 10, total: 50, rate: 4, status: 'scraping' })).toBe(
      '10/50 pages | 4.0 pages/s | ETA 10s | scraping',
    );
    expect(progressText({ label: 'crawl', done: 50, total: 50, rate: 4, status: 'completed' })).toBe(
      '50/50 pages | 4.0 pages/s | ETA 0s | completed',
    );
  });

  it('counts failed pages as finished, and says how many failed', () => {
    expect(
      progressText({ label: 'batch', done: 10, total: 50, failed: 10, rate: 4, status: 'scraping' }),
    ).toBe('10/50 pages, 10 failed | 4.0 pages/s | ETA 8s | scraping');
  });
});
