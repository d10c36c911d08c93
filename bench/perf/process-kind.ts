import { readFileSync } from 'node:fs';

/** What a process (or, for Node, a thread) of a contender is, for the bench's ledgers. */
export type ProcessKind =
  | 'browser'
  | 'renderer'
  | 'extension'
  | 'gpu'
  | 'network'
  | 'utility'
  | 'zygote'
  | 'node-main'
  | 'node-derive'
  | 'node-other'
  | 'bench'
  | 'other';

export const PROCESS_KIND_LABELS: Record<ProcessKind, string> = {
  browser: 'Chromium browser process',
  renderer: 'page renderers',
  extension: 'extension renderer (service worker)',
  gpu: 'GPU / viz process',
  network: 'network service',
  utility: 'other utility processes',
  zygote: 'zygotes',
  'node-main': 'Node main thread',
  'node-derive': 'Node derivation workers',
  'node-other': 'Node other threads (GC, libuv)',
  bench: 'the bench: fixture site and its client',
  other: 'other processes',
};

/** A process's command line, arguments spaced; empty once it has ended. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** The kind of a process from its command line (Chromium's `--type=` switches). */
export function processKind(cmdline: string): ProcessKind | 'node' {
  const executable = cmdline.split(' ')[0] ?? '';
  if (/(^|\/)node$/.test(executable)) return 'node';
  if (!/chrom/i.test(executable)) return 'other';
  // Chromium's children name the handler too (--crashpad-handler-pid): only its own binary is it.
  if (executable.includes('crashpad')) return 'utility';
  const type = /--type=(\S+)/.exec(cmdline)?.[1];
  if (type === undefined) return 'browser';
  if (type === 'renderer') return cmdline.includes('--extension-process') ? 'extension' : 'renderer';
  if (type === 'gpu-process') return 'gpu';
  if (type === 'zygote') return 'zygote';
  if (type === 'utility') return cmdline.includes('NetworkService') ? 'network' : 'utility';
  return 'other';
}
