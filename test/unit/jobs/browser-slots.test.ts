import { describe, expect, it } from 'vitest';
import { createBrowserSlots } from '../../../server/scrape/admit/browser-slots';

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A piece of work that runs until the test ends it. */
function controlled() {
  let finish!: (error?: Error) => void;
  let started = false;
  const work = () => {
    started = true;
    return new Promise<string>((resolve, reject) => {
      finish = (error) => (error === undefined ? resolve('done') : reject(error));
    });
  };
  return {
    work,
    started: () => started,
    finish: (error?: Error) => finish(error),
  };
}

describe('browser slots of job pages', () => {
  it('let as many pages into a browser as the limit says, the others in arrival order as slots free', async () => {
    const slots = createBrowserSlots(() => 2);
    const pages = [controlled(), controlled(), controlled(), controlled()];
    const runs = pages.map((page) => slots.run(page.work));
    await settle();
    expect(pages.map((page) => page.started())).toEqual([true, true, false, false]);
    expect(slots.inUse()).toBe(2);

    pages[1]!.finish();
    await expect(runs[1]).resolves.toBe('done');
    await settle();
    expect(pages.map((page) => page.started())).toEqual([true, true, true, false]);

    // A page that fails frees its slot too.
    pages[0]!.finish(new Error('browser went away'));
    await expect(runs[0]).rejects.toThrow('browser went away');
    await settle();
    expect(pages[3]!.started()).toBe(true);
    pages[2]!.finish();
    pages[3]!.finish();
    await Promise.all(runs.slice(2));
    expect(slots.inUse()).toBe(0);
  });

  it('let one page through while no browser is connected, for the hub to wait for one', async () => {
    let limit = 0;
    const slots = createBrowserSlots(() => limit);
    const first = controlled();
    const second = controlled();
    const runs = [slots.run(first.work), slots.run(second.work)];
    await settle();
    expect([first.started(), second.started()]).toEqual([true, false]);
    // Browsers connected meanwhile: the next free slot admits as many as the new limit allows.
    limit = 3;
    first.finish();
    await settle();
    expect(second.started()).toBe(true);
    second.finish();
    await Promise.all(runs);
  });
});
