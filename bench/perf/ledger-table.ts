import { type CpuLedger, PROCESS_KIND_LABELS, type ProcessKind } from './cpu-ledger';
import { PAGE_STAGES, type PageStageMs } from './page-stages';

/** One contender's ledger of a crawl, per page (cpu-ledger.ts's perPage). */
export interface LedgerColumn {
  name: string;
  cpu: CpuLedger;
  stages?: PageStageMs | undefined;
}

const ms = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(1));

/**
 * The CPU ledger as Markdown: milliseconds of CPU per page by kind of process, one column per
 * contender, then the browser process's largest threads, then (for Tabhive) a page's wall-clock
 * stages.
 */
export function renderLedger(columns: LedgerColumn[]): string {
  const kinds = (Object.keys(PROCESS_KIND_LABELS) as ProcessKind[]).filter((kind) =>
    columns.some((column) => (column.cpu.byKind[kind] ?? 0) >= 0.05),
  );
  const header = `| CPU ms per page | ${columns.map((column) => column.name).join(' | ')} |`;
  const rule = `| --- |${columns.map(() => ' ---: |').join('')}`;
  const lines = [header, rule];
  for (const kind of kinds) {
    lines.push(
      `| ${PROCESS_KIND_LABELS[kind]} | ${columns.map((column) => ms(column.cpu.byKind[kind])).join(' | ')} |`,
    );
  }
  lines.push(`| **sum** | ${columns.map((column) => `**${ms(column.cpu.totalMs)}**`).join(' | ')} |`);

  const threads = new Map<string, number>();
  for (const column of columns) {
    for (const [name, value] of Object.entries(column.cpu.browserThreads)) {
      threads.set(name, Math.max(threads.get(name) ?? 0, value));
    }
  }
  const top = [...threads.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
  if (top.length > 0) {
    lines.push(
      '',
      `| browser process, by thread | ${columns.map((column) => column.name).join(' | ')} |`,
      rule,
    );
    for (const [name] of top) {
      lines.push(`| ${name} | ${columns.map((column) => ms(column.cpu.browserThreads[name])).join(' | ')} |`);
    }
  }

  const staged = columns.filter((column) => column.stages !== undefined);
  if (staged.length > 0) {
    lines.push(
      '',
      `| wall-clock ms per page, by stage | ${staged.map((column) => column.name).join(' | ')} |`,
      `| --- |${staged.map(() => ' ---: |').join('')}`,
    );
    for (const stage of PAGE_STAGES) {
      lines.push(`| ${stage} | ${staged.map((column) => ms(column.stages?.[stage])).join(' | ')} |`);
    }
  }
  return lines.join('\n');
}
