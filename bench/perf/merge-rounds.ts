import type { CpuLedger, ProcessKind } from './cpu-ledger';
import type { LedgerColumn } from './ledger-table';
import type { PageStage, PageStageMs } from './page-stages';
import { type BenchRow, median } from './results-table';

const shown = (value: number) =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);

/**
 * One row per figure from the alternated rounds: the median of the rounds that measured it, each
 * round's figure in the note when there were several. Figures measured once (the first round's
 * extras) stay as they are.
 */
export function mergeRounds(rounds: BenchRow[][]): BenchRow[] {
  const byKey = new Map<string, BenchRow[]>();
  for (const rows of rounds) {
    for (const row of rows) byKey.set(row.key, [...(byKey.get(row.key) ?? []), row]);
  }
  return [...byKey.values()].map((rows) => {
    const first = rows[0] as BenchRow;
    if (rows.length === 1) return first;
    const values = rows.map((row) => row.value);
    const runs = `runs ${values.map((value) => (Number.isFinite(value) ? shown(value) : '—')).join(' / ')}`;
    return {
      ...first,
      value: median(values),
      note: first.note === undefined ? runs : `${first.note}; ${runs}`,
    };
  });
}

/** Medians of a record's entries over several records. */
function medianRecord<K extends string>(
  records: Array<Partial<Record<K, number>>>,
): Partial<Record<K, number>> {
  const keys = new Set(records.flatMap((record) => Object.keys(record) as K[]));
  const result: Partial<Record<K, number>> = {};
  for (const key of keys) result[key] = median(records.map((record) => record[key] ?? 0));
  return result;
}

/** Each contender's ledger as the median, line by line, of its rounds' ledgers. */
export function medianLedgers(rounds: LedgerColumn[][]): LedgerColumn[] {
  const names = [...new Set(rounds.flatMap((columns) => columns.map((column) => column.name)))];
  return names.map((name) => {
    const columns = rounds.flatMap((round) => round.filter((column) => column.name === name));
    const cpus = columns.map((column) => column.cpu);
    const cpu: CpuLedger = {
      byKind: medianRecord<ProcessKind>(cpus.map((ledger) => ledger.byKind)),
      browserThreads: medianRecord<string>(cpus.map((ledger) => ledger.browserThreads)) as Record<
        string,
        number
      >,
      totalMs: median(cpus.map((ledger) => ledger.totalMs)),
      endedProcesses: Math.max(...cpus.map((ledger) => ledger.endedProcesses)),
      seconds: median(cpus.map((ledger) => ledger.seconds)),
    };
    const stages = columns.flatMap((column) => (column.stages === undefined ? [] : [column.stages]));
    return {
      name,
      cpu,
      ...(stages.length === 0 ? {} : { stages: medianRecord<PageStage>(stages) as PageStageMs }),
    };
  });
}
