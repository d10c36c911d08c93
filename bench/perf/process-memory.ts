import { readFileSync, readdirSync } from 'node:fs';

/** Resident memory of a process and all its descendants, in bytes (Linux /proc). */
export function treeRss(rootPid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const parent = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      rss.set(Number(entry), kb * 1024);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while we read it.
    }
  }
  let total = 0;
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Samples the tree's memory until stopped; `peak()` is the largest sample. */
export function watchPeakMemory(rootPid: number, everyMs = 250) {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, treeRss(rootPid));
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    peak: () => peak,
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
