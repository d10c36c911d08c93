import { readFileSync, readdirSync } from 'node:fs';
import { commandLine, processKind } from './process-kind';

/** Memory of a process tree at one moment, in bytes. */
export interface TreeMemory {
  /**
   * The sum of each process's resident set (VmRSS). Pages that processes share (Chromium's code,
   * its fork server's heap, shared memory between the browser and its renderers) count once per
   * process that maps them, so this overstates a tree of many processes.
   */
  rss: number;
  /**
   * The sum of each process's proportional set size (Pss in smaps_rollup): a page shared by n
   * processes counts 1/n in each, so the sum is what the tree holds, each page once.
   */
  pss: number;
}

/** `kB` lines of a /proc file, e.g. VmRSS in status or Pss in smaps_rollup, in bytes. */
const kilobytes = (text: string, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024;

/** The process and all its descendants (Linux /proc). */
export function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name, in parentheses, may hold spaces; the parent id is the second field after it.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while we read it.
    }
  }
  const tree: number[] = [];
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Memory of one process; zero for one that has ended. PSS only when asked: it costs more to read. */
export function processMemory(pid: number, { pss = true } = {}): TreeMemory {
  try {
    return {
      rss: kilobytes(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS'),
      pss: pss ? kilobytes(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss') : 0,
    };
  } catch {
    return { rss: 0, pss: 0 };
  }
}

/** Memory of a process and all its descendants. */
export function treeMemory(rootPid: number, { pss = true } = {}): TreeMemory {
  const total = { rss: 0, pss: 0 };
  for (const pid of processTree(rootPid)) {
    const memory = processMemory(pid, { pss });
    total.rss += memory.rss;
    total.pss += memory.pss;
  }
  return total;
}

/** Resident memory of a process and all its descendants, in bytes (the sum of VmRSS). */
export function treeRss(rootPid: number): number {
  return treeMemory(rootPid, { pss: false }).rss;
}

/** How often PSS is read at least: smaps_rollup of a Chromium tree costs about 30 ms of CPU, RSS 3 ms. */
const PSS_EVERY_MS = 1_000;

/**
 * Samples the tree's memory until stopped. `peak()` and `stop()` give the largest RSS sum, as
 * they always have; `peakPss()` the largest PSS sum, with `pss: true`. RSS is read every `everyMs`;
 * PSS, dearer to read, once a second and whenever the RSS sum reaches a new high.
 */
export function watchPeakMemory(rootPid: number, everyMs = 250, { pss = false } = {}) {
  let peakRss = 0;
  let peakPss = 0;
  /** The PSS of each kind of process at the PSS peak (Node's whole process as `node`). */
  let peakPssByKind: Record<string, number> = {};
  const kinds = new Map<number, string>();
  const kindOf = (pid: number) => {
    let kind = kinds.get(pid);
    if (kind === undefined) {
      kind = processKind(commandLine(pid));
      kinds.set(pid, kind);
    }
    return kind;
  };
  let pssReadAt = Number.NEGATIVE_INFINITY;
  const sample = () => {
    const tree = processTree(rootPid);
    const rss = tree.reduce((sum, pid) => sum + processMemory(pid, { pss: false }).rss, 0);
    const now = performance.now();
    if (pss && (rss > peakRss || now - pssReadAt >= PSS_EVERY_MS)) {
      pssReadAt = now;
      const byKind: Record<string, number> = {};
      let total = 0;
      for (const pid of tree) {
        const { pss: bytes } = processMemory(pid);
        total += bytes;
        const kind = kindOf(pid);
        byKind[kind] = (byKind[kind] ?? 0) + bytes;
      }
      if (total > peakPss) [peakPss, peakPssByKind] = [total, byKind];
    }
    peakRss = Math.max(peakRss, rss);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    peak: () => peakRss,
    peakPss: () => peakPss,
    peakPssByKind: () => peakPssByKind,
    stop() {
      clearInterval(timer);
      sample();
      return peakRss;
    },
  };
}
