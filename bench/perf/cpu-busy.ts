import { readFileSync } from 'node:fs';

/** The machine's CPU time so far (Linux /proc/stat, all cores): busy and total jiffies. */
function cpuTimes(): { busy: number; total: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    // idle and iowait are the 4th and 5th fields.
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/**
 * How busy the machine's CPUs were while `work` ran, as a share of all cores (0–1), with its
 * result; undefined share where /proc/stat cannot be read.
 */
export async function withCpuBusy<T>(
  work: () => Promise<T>,
): Promise<{ result: T; busy: number | undefined }> {
  const before = cpuTimes();
  const result = await work();
  const after = cpuTimes();
  if (before === undefined || after === undefined || after.total === before.total)
    return { result, busy: undefined };
  return { result, busy: (after.busy - before.busy) / (after.total - before.total) };
}
