import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { perPage, processKind, watchCpuLedger } from '../../../bench/perf/cpu-ledger';
import { medianLedgers, mergeRounds } from '../../../bench/perf/merge-rounds';
import { computeTargetsOverRounds, median } from '../../../bench/perf/results-table';
import type { BenchRow, BenchTarget } from '../../../bench/perf/results-table';

describe("the CPU ledger's process kinds", () => {
  it("tells Chromium's processes apart by their --type switches", () => {
    const chromium = '/usr/lib/chromium/chromium';
    expect(processKind(`${chromium} --headless --user-data-dir=/tmp/p`)).toBe('browser');
    expect(processKind(`${chromium} --type=renderer --crashpad-handler-pid=9 --renderer-client-id=5`)).toBe(
      'renderer',
    );
    expect(processKind(`${chromium} --type=renderer --extension-process --renderer-client-id=4`)).toBe(
      'extension',
    );
    expect(processKind(`${chromium} --type=gpu-process --use-gl=angle`)).toBe('gpu');
    expect(processKind(`${chromium} --type=utility --utility-sub-type=network.mojom.NetworkService`)).toBe(
      'network',
    );
    expect(processKind(`${chromium} --type=utility --utility-sub-type=storage.mojom.StorageService`)).toBe(
      'utility',
    );
    expect(processKind(`${chromium} --type=zygote --no-zygote-sandbox`)).toBe('zygote');
    expect(processKind('/usr/lib/chromium/chrome_crashpad_handler --monitor-self')).toBe('utility');
    expect(processKind('/opt/node22/bin/node --import tsx peer.ts')).toBe('node');
    expect(processKind('/bin/sh -c true')).toBe('other');
  });
});

describe.skipIf(!existsSync('/proc/self/task'))('the CPU ledger of a process tree', () => {
  it("counts a busy child's CPU, and a Node thread that names itself apart from the main thread", async () => {
    // A Node child whose worker thread names itself as Tabhive's derivation workers do, then does
    // a fixed amount of work and says so.
    const script = `
      const { Worker } = require('node:worker_threads');
      const worker = new Worker(\`require('node:fs').writeFileSync('/proc/thread-self/comm', 'tabhive-derive');
        let x = 0; for (let i = 0; i < 4e7; i += 1) x = (x + i) % 7;
        require('node:worker_threads').parentPort.postMessage(x);\`, { eval: true });
      worker.on('message', () => console.log('done'));
      setTimeout(() => {}, 30_000);`;
    const child = spawn(process.execPath, ['-e', script]);
    try {
      const watch = watchCpuLedger([child.pid as number], { everyMs: 50 });
      await new Promise<void>((resolve) => child.stdout.on('data', () => resolve()));
      const ledger = watch.stop();
      const derive = ledger.byKind['node-derive'] ?? 0;
      expect(derive).toBeGreaterThanOrEqual(50);
      expect(derive).toBeGreaterThan(ledger.byKind['node-main'] ?? 0);
      expect(ledger.totalMs).toBeGreaterThanOrEqual(derive);
      const halved = perPage(ledger, 2);
      expect(halved.totalMs).toBeCloseTo(ledger.totalMs / 2);
      expect(halved.byKind['node-derive']).toBeCloseTo((ledger.byKind['node-derive'] ?? 0) / 2);
    } finally {
      child.kill();
    }
  }, 30_000);
});

describe('alternated rounds', () => {
  const row = (key: string, value: number): BenchRow => ({
    key,
    label: key,
    value,
    unit: 'pages/s',
    better: 'higher',
  });
  const targets: BenchTarget[] = [
    { key: 'ratio', label: 'a ÷ b', numerator: 'a', denominator: 'b', target: 2 },
    { key: 'bound', label: 'cold start', row: 'start', better: 'lower', target: 1500, shown: '≤ 1.5 s' },
  ];

  it('takes the median of the rounds’ ratios, and asks a bound to hold in every round', () => {
    const rounds = [
      [row('a', 30), row('b', 10), row('start', 1200)],
      [row('a', 10), row('b', 10), row('start', 1600)],
      [row('a', 25), row('b', 10), row('start', 1300)],
    ];
    const [ratio, bound] = computeTargetsOverRounds(rounds, targets);
    expect(ratio?.value).toBe(2.5);
    expect(ratio?.runs).toEqual([3, 1, 2.5]);
    expect(ratio?.met).toBe(true);
    // Median 1300 is within the bound, but one round was not.
    expect(bound?.value).toBe(1300);
    expect(bound?.met).toBe(false);
  });

  it('merges rows into medians with each round listed, and keeps rows measured once', () => {
    const merged = mergeRounds([[row('a', 3), row('once', 7)], [row('a', 1)], [row('a', 2)]]);
    expect(merged.find((r) => r.key === 'a')).toMatchObject({ value: 2, note: 'runs 3.00 / 1.00 / 2.00' });
    expect(merged.find((r) => r.key === 'once')).toMatchObject({ value: 7 });
    expect(median([4, Number.NaN, 2])).toBe(3);
  });

  it('makes one ledger per contender from the median of each line', () => {
    const cpu = (browser: number) => ({
      byKind: { browser, renderer: 10 },
      browserThreads: { CrBrowserMain: browser / 2 },
      totalMs: browser + 10,
      endedProcesses: 0,
      seconds: 1,
    });
    const [tabhive] = medianLedgers([
      [{ name: 'Tabhive', cpu: cpu(60), stages: { derive: 4 } }],
      [{ name: 'Tabhive', cpu: cpu(20), stages: { derive: 2 } }],
      [{ name: 'Tabhive', cpu: cpu(40), stages: { derive: 3 } }],
    ]);
    expect(tabhive?.cpu.byKind.browser).toBe(40);
    expect(tabhive?.cpu.totalMs).toBe(50);
    expect(tabhive?.cpu.browserThreads.CrBrowserMain).toBe(20);
    expect(tabhive?.stages?.derive).toBe(3);
  });
});
