import { describe, expect, it } from 'vitest';
import { createBrowserStateKeeper } from '../../../extension/browser-state/browser-state-keeper';

describe('browser state keeper', () => {
  it('wipes once per change of hands, and only after the previous owner’s tasks have left', async () => {
    const events: string[] = [];
    const keeper = createBrowserStateKeeper({
      wipe: async () => {
        events.push('wipe');
      },
    });
    const [leaveA1, leaveA2] = await Promise.all([keeper.enter('team:A'), keeper.enter('team:A')]);
    expect(events).toEqual(['wipe']);
    expect(keeper.owner()).toBe('team:A');

    let enteredB = false;
    const b = keeper.enter('team:B').then((leave) => {
      enteredB = true;
      events.push('B in');
      return leave;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(enteredB).toBe(false);
    leaveA1();
    leaveA1(); // leaving twice counts once
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(enteredB).toBe(false);
    leaveA2();
    const leaveB = await b;
    expect(events).toEqual(['wipe', 'wipe', 'B in']);
    expect(keeper.owner()).toBe('team:B');
    leaveB();
  });

  it('lets tasks without a key (a donated browser) through without ever wiping', async () => {
    let wipes = 0;
    const keeper = createBrowserStateKeeper({ wipe: async () => void (wipes += 1) });
    const leave = await keeper.enter(undefined);
    leave();
    expect(wipes).toBe(0);
  });

  it('refuses to run a task when the wipe fails, and tries again for the next', async () => {
    let fail = true;
    const keeper = createBrowserStateKeeper({
      wipe: async () => {
        if (fail) throw new Error('browsingData failed');
      },
    });
    await expect(keeper.enter('team:A')).rejects.toThrow('browsingData failed');
    expect(keeper.owner()).toBeUndefined();
    fail = false;
    const leave = await keeper.enter('team:A');
    expect(keeper.owner()).toBe('team:A');
    leave();
  });
});
