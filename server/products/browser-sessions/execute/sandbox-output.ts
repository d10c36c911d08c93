import { KILLED_EXIT_CODE, codeOutput, failedOutput, type ExecuteResponse } from '../execute-output';
import type { SandboxOutcome } from './run-in-sandbox';
import type { SandboxLimits } from './sandbox-limits';

/** A sandboxed run as Firecrawl's execute response: what it logged, and its value, error or kill. */
export function sandboxOutput(
  outcome: SandboxOutcome,
  { timeoutS, limits }: { timeoutS: number; limits: SandboxLimits },
): ExecuteResponse {
  const { logs } = outcome;
  switch (outcome.kind) {
    case 'returned':
      return codeOutput({ value: outcome.value, logs });
    case 'threw':
      return failedOutput(outcome.message, { killed: false, logs });
    case 'killed':
      switch (outcome.reason) {
        case 'timeout':
          return failedOutput(`Execution timed out after ${timeoutS} s and was stopped`, {
            killed: true,
            logs,
          });
        case 'cpu':
          return failedOutput(
            `Execution used more than ${limits.cpuMs / 1000} s of CPU time and was stopped`,
            { killed: true, logs },
          );
        case 'memory':
          return failedOutput(`Execution used more than ${limits.memoryMb} MiB of memory and was stopped`, {
            killed: true,
            logs,
            exitCode: KILLED_EXIT_CODE,
          });
      }
  }
}
