import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalesceCalls } from '../../../extension/hub/coalesce-calls';

describe('coalesceCalls', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once for a burst of calls, after the delay, and again for a later burst', () => {
    const fn = vi.fn();
    const call = coalesceCalls(fn, 200);
    call();
    call();
    vi.advanceTimersByTime(199);
    call();
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    call();
    vi.advanceTimersByTime(200);
    expect(fn).toHaveBeenCalledTimes(2);
  });
});
