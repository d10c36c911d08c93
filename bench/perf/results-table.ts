/** One measured figure of a bench run. */
export interface BenchRow {
  /** Stable key, used to compare runs. */
  key: string;
  label: string;
  value: number;
  unit: string;
  /** Higher is better (throughput) or lower is better (latency, memory, start). */
  better: 'higher' | 'lower';
  note?: string;
}

/** A target of the issue, as a ratio between two rows of the same run. */
export interface BenchRatio {
  key: string;
  label: string;
  numerator: string;
  denominator: string;
  target?: number;
}

export interface BenchRun {
  startedAt: string;
  conditions: Record<string, string | number>;
  rows: BenchRow[];
  ratios: Array<BenchRatio & { value: number; met?: boolean }>;
}

export function computeRatios(rows: BenchRow[], ratios: BenchRatio[]): BenchRun['ratios'] {
  const value = (key: string) => rows.find((row) => row.key === key)?.value ?? Number.NaN;
  return ratios.map((ratio) => {
    const result = value(ratio.numerator) / value(ratio.denominator);
    // A ratio with a row missing (BENCH_SKIP_PEERS) is neither met nor missed.
    const known = ratio.target !== undefined && Number.isFinite(result);
    return { ...ratio, value: result, ...(known ? { met: result >= (ratio.target as number) } : {}) };
  });
}

const format = (value: number) =>
  !Number.isFinite(value)
    ? '—'
    : value >= 100
      ? value.toFixed(0)
      : value >= 10
        ? value.toFixed(1)
        : value.toFixed(2);

/**
 * A Markdown report of a run: the figures, then the ratios with their targets; with a previous
 * run, each figure's change, and a flag on changes of more than `tolerance` in the bad direction.
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
      if (old === undefined) comparison = ' — | new |';
      else {
        const change = row.value / old.value - 1;
        const worse = row.better === 'higher' ? change < -tolerance : change > tolerance;
        comparison = ` ${format(old.value)} | ${change >= 0 ? '+' : ''}${(change * 100).toFixed(0)} %${worse ? ' ⚠ regression' : ''} |`;
      }
    }
    lines.push(
      `| ${row.label}${row.note ? ` (${row.note})` : ''} | ${format(row.value)} | ${row.unit} |${comparison}`,
    );
  }
  const ratiosBefore = new Map(previous?.ratios.map((ratio) => [ratio.key, ratio.value]));
  lines.push(
    '',
    `| ratio (same run) | value | target | met |${previous === undefined ? '' : ' previous |'}`,
    `| --- | ---: | ---: | --- |${previous === undefined ? '' : ' ---: |'}`,
  );
  for (const ratio of run.ratios) {
    const old = ratiosBefore.get(ratio.key);
    lines.push(
      `| ${ratio.label} | ${Number.isFinite(ratio.value) ? `${format(ratio.value)}×` : '—'} | ${ratio.target === undefined ? '—' : `${ratio.target}×`} | ${
        ratio.met === undefined ? '—' : ratio.met ? 'yes' : 'no'
      } |${previous === undefined ? '' : ` ${old === undefined ? '—' : `${format(old)}×`} |`}`,
    );
  }
  return lines.join('\n');
}

/** Rows that got worse than the previous run by more than `tolerance`, for the console summary. */
export function regressions(run: BenchRun, previous: BenchRun | undefined, tolerance = 0.2): string[] {
  if (previous === undefined) return [];
  const before = new Map(previous.rows.map((row) => [row.key, row]));
  const ratiosBefore = new Map(previous.ratios.map((ratio) => [ratio.key, ratio.value]));
  const worseRatios = run.ratios.flatMap((ratio) => {
    const old = ratiosBefore.get(ratio.key);
    return old !== undefined && ratio.value / old - 1 < -tolerance
      ? [`${ratio.label}: ${format(old)}× → ${format(ratio.value)}×`]
      : [];
  });
  return [
    ...worseRatios,
    ...run.rows.flatMap((row) => {
      const old = before.get(row.key);
      if (old === undefined) return [];
      const change = row.value / old.value - 1;
      const worse = row.better === 'higher' ? change < -tolerance : change > tolerance;
      return worse ? [`${row.label}: ${format(old.value)} → ${format(row.value)} ${row.unit}`] : [];
    }),
  ];
}
