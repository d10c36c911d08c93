import { describe, expect, it } from 'vitest';
import {
  type BenchRow,
  type BenchRun,
  computeRatios,
  regressions,
  renderMarkdown,
} from '../../../bench/perf/results-table';

const row = (key: string, value: number, better: 'higher' | 'lower' = 'higher'): BenchRow => ({
  key,
  label: key,
  value,
  unit: better === 'higher' ? 'pages/s' : 'ms',
  better,
});
const RATIOS = [{ key: 'r', label: 'ours ÷ peer', numerator: 'ours', denominator: 'peer', target: 2 }];
const runOf = (rows: BenchRow[]): BenchRun => ({
  startedAt: '2026-01-01T00:00:00.000Z',
  conditions: {},
  rows,
  ratios: computeRatios(rows, RATIOS),
});

describe('bench results', () => {
  it('computes ratios between rows of one run and says whether each target is met', () => {
    expect(computeRatios([row('ours', 30), row('peer', 10)], RATIOS)).toEqual([
      { ...RATIOS[0], value: 3, met: true },
    ]);
    expect(computeRatios([row('ours', 15), row('peer', 10)], RATIOS)[0]?.met).toBe(false);
    // Without the peer's row (BENCH_SKIP_PEERS) the target is neither met nor missed.
    expect(computeRatios([row('ours', 15)], RATIOS)[0]?.met).toBeUndefined();
  });

  it('flags figures and ratios that got worse than the previous run by more than the tolerance', () => {
    const previous = runOf([row('ours', 30), row('peer', 10), row('latency', 100, 'lower')]);
    const current = runOf([row('ours', 20), row('peer', 10), row('latency', 110, 'lower')]);
    expect(regressions(current, previous)).toEqual([
      'ours ÷ peer: 3.00× → 2.00×',
      'ours: 30.0 → 20.0 pages/s',
    ]);
    const table = renderMarkdown(current, previous);
    expect(table).toContain('| ours | 20.0 | pages/s | 30.0 | -33 % ⚠ regression |');
    expect(table).toContain('| latency | 110 | ms | 100 | +10 % |');
    expect(table).toContain('| ours ÷ peer | 2.00× | 2× | yes | 3.00× |');
    expect(regressions(current, undefined)).toEqual([]);
  });
});
