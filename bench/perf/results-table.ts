import type { LedgerColumn } from './ledger-table';

/** One measured figure of a bench run. */
export interface BenchRow {
  /** Stable key, used to compare runs. */
  key: string;
  label: string;
  /** NaN when not measured (the note says why); JSON keeps it as null. */
  value: number;
  unit: string;
  /** Higher is better (throughput) or lower is better (latency, memory, start). */
  better: 'higher' | 'lower';
  note?: string;
}

/**
 * A target of the issue: a ratio between two rows of the same run (met at `target` or more), or
 * a bound on one row's own figure.
 */
export type BenchTarget = { key: string; label: string; target?: number } & (
  | { numerator: string; denominator: string }
  | {
      row: string;
      better: 'higher' | 'lower';
      /** How the target reads in the table, e.g. "≤ 0.6 GB". */
      shown: string;
    }
);
export type BenchTargetResult = BenchTarget & {
  value: number;
  unit?: string;
  met?: boolean;
  /** With alternated rounds: each round's figure, in order (the value is their median). */
  runs?: number[];
};

export interface BenchRun {
  startedAt: string;
  conditions: Record<string, string | number>;
  rows: BenchRow[];
  /** Every target, ratios and bounds on figures (the name kept for older result files). */
  ratios: BenchTargetResult[];
  /** The browser crawl's CPU ledger by contender (median of the rounds); absent in older files. */
  ledger?: LedgerColumn[];
}

/** Each target's figure in this run (a ratio or a row's own) and whether it is met. */
export function computeRatios(rows: BenchRow[], targets: BenchTarget[]): BenchTargetResult[] {
  const find = (key: string) => rows.find((row) => row.key === key);
  const value = (key: string) => find(key)?.value ?? Number.NaN;
  return targets.map((target) => {
    const isRatio = 'numerator' in target;
    const result = isRatio ? value(target.numerator) / value(target.denominator) : value(target.row);
    // A target with a row missing (BENCH_SKIP_PEERS, a counter not served) is neither met nor missed.
    const known = target.target !== undefined && Number.isFinite(result);
    const better = isRatio ? 'higher' : target.better;
    const met = better === 'higher' ? result >= (target.target ?? 0) : result <= (target.target ?? 0);
    const unit = isRatio ? undefined : find(target.row)?.unit;
    return { ...target, value: result, ...(unit === undefined ? {} : { unit }), ...(known ? { met } : {}) };
  });
}

/** The median of finite figures; NaN when there are none. */
export function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Targets over alternated rounds (each round runs Tabhive and each peer once, one after the
 * other, so that a noisy minute touches every contender alike): a ratio target's figure is the
 * median of the rounds' ratios, met when the median meets it; a bound on a figure must hold in
 * every round ("every run"), and its figure is the median with each round's listed beside it.
 */
export function computeTargetsOverRounds(rounds: BenchRow[][], targets: BenchTarget[]): BenchTargetResult[] {
  const perRound = rounds.map((rows) => computeRatios(rows, targets));
  return targets.map((target, index) => {
    const results = perRound.map((round) => round[index] as BenchTargetResult);
    const runs = results.map((result) => result.value);
    const value = median(runs);
    const known = results.filter((result) => result.met !== undefined);
    const unit = results.find((result) => result.unit !== undefined)?.unit;
    const met =
      known.length === 0
        ? undefined
        : 'numerator' in target
          ? value >= (target.target ?? 0)
          : known.every((result) => result.met === true);
    return {
      ...target,
      value,
      runs,
      ...(unit === undefined ? {} : { unit }),
      ...(met === undefined ? {} : { met }),
    };
  });
}

const format = (value: number | null | undefined) =>
  typeof value !== 'number' || !Number.isFinite(value)
    ? '—'
    : value >= 100
      ? value.toFixed(0)
      : value >= 10
        ? value.toFixed(1)
        : value.toFixed(2);

/** The relative change from `old`, or undefined when either figure is missing or `old` is 0. */
function change(now: number, old: number | null | undefined): number | undefined {
  if (typeof old !== 'number' || !Number.isFinite(old) || old === 0 || !Number.isFinite(now))
    return undefined;
  return now / old - 1;
}

const isWorse = (row: BenchRow, delta: number | undefined, tolerance: number) =>
  delta !== undefined && (row.better === 'higher' ? delta < -tolerance : delta > tolerance);

/** A target's figure as the table shows it: `1.52×` for a ratio, `612 MB` for a row's own. */
function shownValue(target: BenchTarget, value: number | null | undefined, unit: string | undefined) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '—';
  return 'numerator' in target ? `${format(value)}×` : `${format(value)} ${unit ?? ''}`.trim();
}

/**
 * A Markdown report of a run: the figures, then the targets; with a previous run, each figure's
 * change, and a flag on changes of more than `tolerance` in the bad direction.
 */
export function renderMarkdown(run: BenchRun, previous: BenchRun | undefined, tolerance = 0.2): string {
  const before = new Map(previous?.rows.map((row) => [row.key, row]));
  const lines = [
    `| measure | value | unit |${previous === undefined ? '' : ' previous | change |'}`,
    `| --- | ---: | --- |${previous === undefined ? '' : ' ---: | --- |'}`,
  ];
  for (const row of run.rows) {
    let comparison = '';
    if (previous !== undefined) {
      const old = before.get(row.key);
      const delta = change(row.value, old?.value);
      comparison =
        old === undefined
          ? ' — | new |'
          : ` ${format(old.value)} | ${
              delta === undefined
                ? '—'
                : `${delta >= 0 ? '+' : ''}${(delta * 100).toFixed(0)} %${isWorse(row, delta, tolerance) ? ' ⚠ regression' : ''}`
            } |`;
    }
    lines.push(
      `| ${row.label}${row.note ? ` (${row.note})` : ''} | ${format(row.value)} | ${row.unit} |${comparison}`,
    );
  }
  const targetsBefore = new Map(previous?.ratios.map((target) => [target.key, target]));
  lines.push(
    '',
    `| target (median of alternated runs) | value | target | met |${previous === undefined ? '' : ' previous |'}`,
    `| --- | ---: | ---: | --- |${previous === undefined ? '' : ' ---: |'}`,
  );
  for (const target of run.ratios) {
    const old = targetsBefore.get(target.key);
    const goal =
      target.target === undefined ? '—' : 'numerator' in target ? `${target.target}×` : target.shown;
    const met = target.met === undefined ? '—' : target.met ? 'yes' : 'no';
    const was = old === undefined ? '—' : shownValue(old, old.value, old.unit);
    const runs =
      target.runs === undefined || target.runs.length < 2
        ? ''
        : ` (runs ${target.runs.map((run) => format(run)).join(' / ')})`;
    lines.push(
      `| ${target.label} | ${shownValue(target, target.value, target.unit)}${runs} | ${goal} | ${met} |${previous === undefined ? '' : ` ${was} |`}`,
    );
  }
  return lines.join('\n');
}

/** Figures and ratios worse than the previous run by more than `tolerance`, for the console. */
export function regressions(run: BenchRun, previous: BenchRun | undefined, tolerance = 0.2): string[] {
  if (previous === undefined) return [];
  const before = new Map(previous.rows.map((row) => [row.key, row]));
  const ratiosBefore = new Map(previous.ratios.map((target) => [target.key, target.value]));
  // Bounds on a row's own figure are left to the row's comparison below.
  const worseRatios = run.ratios.flatMap((target) => {
    if (!('numerator' in target)) return [];
    const old = ratiosBefore.get(target.key);
    const delta = change(target.value, old);
    return delta !== undefined && delta < -tolerance
      ? [`${target.label}: ${format(old)}× → ${format(target.value)}×`]
      : [];
  });
  return [
    ...worseRatios,
    ...run.rows.flatMap((row) => {
      const old = before.get(row.key);
      return isWorse(row, change(row.value, old?.value), tolerance)
        ? [`${row.label}: ${format(old?.value)} → ${format(row.value)} ${row.unit}`]
        : [];
    }),
  ];
}
