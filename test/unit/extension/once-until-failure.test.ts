import { describe, expect, it } from 'vitest';
import { onceUntilFailure } from '../../../extension/network/once-until-failure';

describe('onceUntilFailure', () => {
  it('runs once for every caller while it succeeds', async () => {
    let runs = 0;
    const install = onceUntilFailure(async () => {
      runs += 1;
      return runs;
    });
    expect(await Promise.all([install(), install()])).toEqual([1, 1]);
    expect(await install()).toBe(1);
    expect(runs).toBe(1);
  });

  it('forgets a failure, so that the next caller tries again', async () => {
    let runs = 0;
    const install = onceUntilFailure(async () => {
      runs += 1;
      if (runs === 1) throw new Error('DNR refused the rule');
      return 'installed';
    });
    await expect(install()).rejects.toThrow('DNR refused the rule');
    expect(await install()).toBe('installed');
    expect(await install()).toBe('installed');
    expect(runs).toBe(2);
  });
});
