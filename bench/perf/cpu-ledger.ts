import { readFileSync, readdirSync } from 'node:fs';
import { commandLine, PROCESS_KIND_LABELS, type ProcessKind, processKind } from './process-kind';
import { processTree } from './process-memory';

export { PROCESS_KIND_LABELS, type ProcessKind, processKind };

/**
 * Where a process tree's CPU time goes, by kind of process (and, for Node, by thread): the map the
 * engine work is steered by (BENCHMARKS.md, "CPU ledger"). Read from /proc/<pid>/stat and
 * /proc/<pid>/task/<tid>/stat, the kernel's own counters, sampled every 250 ms so that processes
 * that come and go are caught; a process that ends loses at most its last 250 ms, which is noted
 * rather than guessed (`endedProcesses`). Sampling costs the bench process a little CPU, counted
 * in its own line, the same for every contender.
 */
/** Kernel clock ticks per second for utime/stime (CLK_TCK: 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

/** The thread name Tabhive's derivation workers give themselves (server/scrape/derive). */
const DERIVE_THREAD = /^tabhive-derive/;

interface ThreadSample {
  kind: ProcessKind;
  /** Name of the thread (its comm), for the browser process's breakdown. */
  thread: string;
  ticks: number;
}

function readStat(path: string): { comm: string; ticks: number } | undefined {
  try {
    const stat = readFileSync(path, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    // Fields after the command: state is field 3, utime 14 and stime 15 (man 5 proc).
    const fields = stat.slice(close + 2).split(' ');
    return { comm, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

export interface CpuLedger {
  /** CPU milliseconds by kind over the watch. */
  byKind: Partial<Record<ProcessKind, number>>;
  /** The browser process's CPU milliseconds by thread name (CrBrowserMain, VizCompositorTh…). */
  browserThreads: Record<string, number>;
  totalMs: number;
  /** Processes seen to end during the watch (each may have lost up to one sample period). */
  endedProcesses: number;
  seconds: number;
}

/**
 * Watches the CPU time of the trees under `rootPids` (and, when `includeSelf`, of this process —
 * the bench's own fixture site) until `stop()`.
 */
export function watchCpuLedger(rootPids: number[], { everyMs = 250, includeSelf = false } = {}) {
  const kinds = new Map<number, ProcessKind | 'node'>();
  const first = new Map<string, ThreadSample>();
  const last = new Map<string, ThreadSample>();
  const livePids = new Set<number>();
  let endedProcesses = 0;
  const selfStart = process.cpuUsage();
  const started = performance.now();

  const sample = () => {
    const now = new Set<number>();
    for (const root of rootPids) {
      for (const pid of processTree(root)) {
        now.add(pid);
        let kind = kinds.get(pid);
        if (kind === undefined) {
          kind = processKind(commandLine(pid));
          kinds.set(pid, kind);
        }
        // Thread by thread where the split matters (Node's main thread from its workers, the
        // browser process's threads); whole processes elsewhere, to keep the sampling cheap.
        const byThread = kind === 'node' || kind === 'browser';
        let tids: string[];
        try {
          tids = byThread ? readdirSync(`/proc/${pid}/task`) : [String(pid)];
        } catch {
          continue;
        }
        for (const tid of tids) {
          const stat = readStat(byThread ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`);
          if (stat === undefined) continue;
          const threadKind: ProcessKind =
            kind !== 'node'
              ? kind
              : tid === String(pid)
                ? 'node-main'
                : DERIVE_THREAD.test(stat.comm)
                  ? 'node-derive'
                  : 'node-other';
          const key = `${pid}/${tid}`;
          const entry = { kind: threadKind, thread: stat.comm, ticks: stat.ticks };
          // A thread first seen after the baseline started during the watch: its CPU counts from 0.
          if (!first.has(key)) first.set(key, baselineTaken ? { ...entry, ticks: 0 } : entry);
          last.set(key, entry);
        }
      }
    }
    for (const pid of livePids) if (!now.has(pid)) endedProcesses += 1;
    livePids.clear();
    for (const pid of now) livePids.add(pid);
  };
  // The first sample is the baseline: threads already running count from their ticks then.
  let baselineTaken = false;
  sample();
  baselineTaken = true;
  const timer = setInterval(sample, everyMs);

  return {
    stop(): CpuLedger {
      clearInterval(timer);
      sample();
      const byKind: Partial<Record<ProcessKind, number>> = {};
      const browserThreads: Record<string, number> = {};
      for (const [key, end] of last) {
        const begin = first.get(key);
        const ms = ((end.ticks - (begin?.ticks ?? 0)) * 1000) / TICKS_PER_SECOND;
        if (ms <= 0) continue;
        byKind[end.kind] = (byKind[end.kind] ?? 0) + ms;
        if (end.kind === 'browser') {
          // Pool threads are numbered (ThreadPoolForeg…): one line for all of a name.
          const name = end.thread.replace(/\d+$/, '');
          browserThreads[name] = (browserThreads[name] ?? 0) + ms;
        }
      }
      if (includeSelf) {
        const self = process.cpuUsage(selfStart);
        byKind.bench = (byKind.bench ?? 0) + (self.user + self.system) / 1000;
      }
      const totalMs = Object.values(byKind).reduce((sum, ms) => sum + ms, 0);
      return {
        byKind,
        browserThreads,
        totalMs,
        endedProcesses,
        seconds: (performance.now() - started) / 1000,
      };
    },
  };
}

/** A ledger divided by the pages it was spent on. */
export function perPage(ledger: CpuLedger, pages: number): CpuLedger {
  const divide = <K extends string>(record: Partial<Record<K, number>>) =>
    Object.fromEntries(Object.entries(record).map(([key, ms]) => [key, (ms as number) / pages])) as Partial<
      Record<K, number>
    >;
  return {
    byKind: divide(ledger.byKind),
    browserThreads: divide(ledger.browserThreads) as Record<string, number>,
    totalMs: ledger.totalMs / pages,
    endedProcesses: ledger.endedProcesses,
    seconds: ledger.seconds,
  };
}
