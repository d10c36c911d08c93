import type ivm from 'isolated-vm';
import type { ConsoleLine } from '../execute-output';
import { ROOT_HANDLES, type BridgeResult, type HostBridge } from './host-bridge';
import { PLAYWRIGHT_SURFACE } from './playwright-surface';
import { SANDBOX_PRELUDE } from './sandbox-prelude';
import type { SandboxLimits } from './sandbox-limits';

/** Why the sandbox stopped the code before it finished. */
export type KillReason = 'timeout' | 'cpu' | 'memory';

/** How a sandboxed run ended, with what it logged until then. */
export type SandboxOutcome = { logs: ConsoleLine[] } & (
  | { kind: 'returned'; value: string | undefined }
  | { kind: 'threw'; message: string }
  | { kind: 'killed'; reason: KillReason }
);

/** The share of the memory limit a result may fill when it is copied in (see `admit`). */
const MEMORY_HEADROOM = 0.5;

/** How often the CPU time of a running isolate is read. */
const CPU_CHECK_MS = 25;

const isPath = (value: unknown): value is string[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.length <= 4 &&
  value.every((step) => typeof step === 'string');

function checkedCall(id: unknown, path: unknown): { id: number; path: string[] } {
  if (typeof id !== 'number' || !isPath(path)) throw new Error('malformed bridge call');
  return { id, path };
}

/**
 * Runs `code` as the body of an async function in a fresh V8 isolate (isolated-vm): no Node APIs,
 * no `require`, `process`, `fetch`, timers, file system or network; only what the prelude defines
 * (sandbox-prelude.ts) and, with a `host`, the session's Playwright objects through its bridge.
 * The isolate has `limits.memoryMb` of heap and `limits.cpuMs` of CPU time, and is disposed at
 * `timeoutMs` of wall time, whatever it is doing (a loop, a wait on the page); disposing also
 * abandons the calls it still waits on.
 */
export async function runInSandbox({
  code,
  timeoutMs,
  limits,
  host,
  onCatastrophicError,
}: {
  code: string;
  timeoutMs: number;
  limits: SandboxLimits;
  /** The session's Playwright objects; without one, `page`, `context` and `browser` are not defined. */
  host?: HostBridge | undefined;
  /** V8 lost control of the isolate (isolated-vm's catastrophic error): the process should be restarted. */
  onCatastrophicError?: ((message: string) => void) | undefined;
}): Promise<SandboxOutcome> {
  // Loaded on the first execute: a native module most servers never use, kept out of the start.
  const { default: ivm } = await import('isolated-vm');
  const isolate = new ivm.Isolate({
    memoryLimit: limits.memoryMb,
    onCatastrophicError: (message) => onCatastrophicError?.(message),
  });
  const logs: ConsoleLine[] = [];
  let logChars = 0;
  let killed: KillReason | undefined;
  const kill = (reason: KillReason) => {
    if (killed !== undefined || isolate.isDisposed) return;
    killed = reason;
    isolate.dispose();
  };
  const timer = setTimeout(() => kill('timeout'), timeoutMs);
  const cpuWatch = setInterval(() => {
    if (isolate.isDisposed) return;
    if (isolate.cpuTime > BigInt(limits.cpuMs) * 1_000_000n) kill('cpu');
  }, CPU_CHECK_MS);
  const ended = (): SandboxOutcome | undefined => {
    if (killed !== undefined) return { kind: 'killed', reason: killed, logs };
    // Disposed without a kill of ours: isolated-vm stopped it at its memory limit.
    if (isolate.isDisposed) return { kind: 'killed', reason: 'memory', logs };
    return undefined;
  };
  try {
    /**
     * isolated-vm aborts the whole process when an isolate runs out of memory while a result is
     * copied into it (laverdet/isolated-vm#293), where running out in the isolate's own code only
     * disposes it. So a result is copied in only while the heap has room for it twice over;
     * otherwise the run is stopped at its memory limit here, before the copy.
     */
    const admit = ({ value, size }: BridgeResult): unknown => {
      const heap = isolate.getHeapStatisticsSync();
      const used = heap.used_heap_size + heap.externally_allocated_size;
      if (used + 2 * size > MEMORY_HEADROOM * limits.memoryMb * 1024 * 1024) {
        kill('memory');
        throw new Error('the sandbox is out of memory');
      }
      return value;
    };
    const context = await isolate.createContext();
    const global = context.global;
    const noHost = () => {
      throw new Error('this run has no browser page');
    };
    await global.set(
      '__tabhive_call_sync',
      new ivm.Callback((id: unknown, path: unknown, args: unknown) => {
        const call = checkedCall(id, path);
        return host === undefined ? noHost() : admit(host.callSync(call.id, call.path, args));
      }),
    );
    await global.set(
      '__tabhive_call_async',
      new ivm.Reference(async (id: unknown, path: unknown, args: unknown) => {
        const call = checkedCall(id, path);
        return host === undefined ? noHost() : admit(await host.callAsync(call.id, call.path, args));
      }),
    );
    await global.set(
      '__tabhive_log',
      new ivm.Callback((stream: unknown, text: unknown) => {
        if (logChars > limits.maxConsoleChars) return;
        const line = String(text).slice(0, limits.maxConsoleChars - logChars + 1);
        logChars += line.length + 1;
        logs.push({ stream: stream === 'stderr' ? 'stderr' : 'stdout', text: line });
      }),
    );
    await global.set('__tabhive_surface', JSON.stringify(PLAYWRIGHT_SURFACE));
    await global.set('__tabhive_roots', JSON.stringify(host === undefined ? null : ROOT_HANDLES));
    await context.eval(SANDBOX_PRELUDE, { timeout: timeoutMs });
    let script: ivm.Script;
    try {
      // The code is a function body (await and return work); its first line stays line 1.
      script = await isolate.compileScript(`__tabhive_settle((async () => {\n${code}\n})());`, {
        filename: 'execute.js',
        lineOffset: -1,
      });
    } catch (err) {
      return ended() ?? { kind: 'threw', message: err instanceof Error ? err.message : String(err), logs };
    }
    const settled = (await script.run(context, { promise: true, copy: true })) as {
      value?: unknown;
      error?: unknown;
    };
    const stopped = ended();
    if (stopped !== undefined) return stopped;
    if (typeof settled.error === 'string') return { kind: 'threw', message: settled.error, logs };
    return { kind: 'returned', value: typeof settled.value === 'string' ? settled.value : undefined, logs };
  } catch (err) {
    const stopped = ended();
    if (stopped !== undefined) return stopped;
    throw err;
  } finally {
    clearTimeout(timer);
    clearInterval(cpuWatch);
    if (!isolate.isDisposed) isolate.dispose();
  }
}
