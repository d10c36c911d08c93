import { describe, expect, it } from 'vitest';
import { BACKOFF_INITIAL_MS, BACKOFF_MAX_MS, backoffDelayMs } from '../../../extension/hub/backoff';

describe('reconnect backoff', () => {
  it('grows exponentially and is capped', () => {
    const highest = (attempt: number) => backoffDelayMs(attempt, () => 1);
    expect(highest(0)).toBe(BACKOFF_INITIAL_MS);
    expect(highest(1)).toBe(2 * BACKOFF_INITIAL_MS);
    expect(highest(3)).toBe(8 * BACKOFF_INITIAL_MS);
    expect(highest(10)).toBe(BACKOFF_MAX_MS);
    expect(highest(1_000)).toBe(BACKOFF_MAX_MS);
  });

  it('spreads reconnects with jitter but never retries in a tight loop', () => {
    const delays = Array.from({ length: 200 }, () => backoffDelayMs(4));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(BACKOFF_INITIAL_MS / 2);
    expect(Math.max(...delays)).toBeLessThanOrEqual(16 * BACKOFF_INITIAL_MS);
    expect(new Set(delays).size).toBeGreaterThan(50);
  });
});
