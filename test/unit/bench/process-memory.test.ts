import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processTree, treeMemory, treeRss, watchPeakMemory } from '../../../bench/perf/process-memory';

describe.skipIf(!existsSync('/proc/self/smaps_rollup'))('the memory of a process tree', () => {
  it('counts the children, and counts shared pages once in PSS but once per process in RSS', async () => {
    // Two children of the same Node share its code pages: in RSS each counts them whole.
    const children = [0, 1].map(() => spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10_000)']));
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const tree = processTree(process.pid);
      for (const child of children) expect(tree).toContain(child.pid);

      const memory = treeMemory(process.pid);
      expect(memory.rss).toBeGreaterThan(0);
      expect(memory.pss).toBeGreaterThan(0);
      expect(memory.pss).toBeLessThan(memory.rss);
      expect(treeMemory(process.pid, { pss: false }).pss).toBe(0);
      expect(Math.abs(treeRss(process.pid) - memory.rss) / memory.rss).toBeLessThan(0.2);

      const watch = watchPeakMemory(process.pid, 50, { pss: true });
      await new Promise((resolve) => setTimeout(resolve, 120));
      const peakRss = watch.stop();
      expect(peakRss).toBe(watch.peak());
      expect(watch.peakPss()).toBeGreaterThan(0);
      expect(watch.peakPss()).toBeLessThan(peakRss);
    } finally {
      for (const child of children) child.kill();
    }
  });
});
