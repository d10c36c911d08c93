import type { ActionOutputs } from '../../../shared/protocol/messages';

/** stdout, stderr and a script's result are each cut here (characters); `truncated` then says so. */
export const MAX_EXECUTE_OUTPUT_CHARS = 100_000;
/** Actions' results carry screenshots and PDFs as data URLs: they get more room. */
export const MAX_ACTIONS_RESULT_CHARS = 10 * 1024 * 1024;
/** The exit code of an execute that ran out of time, as `timeout(1)` reports it. */
export const TIMEOUT_EXIT_CODE = 124;

/** Firecrawl's execute response (BrowserExecuteResponse of the clients). */
export interface ExecuteResponse {
  success: boolean;
  cdpUrl?: string;
  liveViewUrl?: string;
  interactiveLiveViewUrl?: string;
  output?: string;
  stdout: string;
  result: string;
  stderr: string;
  exitCode: number;
  killed: boolean;
  truncated?: boolean;
  error?: string;
}

export interface ConsoleLine {
  stream: 'stdout' | 'stderr';
  text: string;
}

function cut(text: string, max: number): { text: string; cut: boolean } {
  return text.length <= max ? { text, cut: false } : { text: text.slice(0, max), cut: true };
}

/** A script's value as the `result` string: text as it is, anything else as JSON, nothing as empty. */
export function resultText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

const joinLines = (logs: readonly ConsoleLine[], stream: ConsoleLine['stream']) =>
  logs
    .filter((line) => line.stream === stream)
    .map((line) => `${line.text}\n`)
    .join('');

/**
 * The response to code that ran: what it logged (console.log → stdout, console.error and warn →
 * stderr) and its value. Without a value, `result` repeats stdout, as Firecrawl's does for code that
 * only prints.
 */
export function codeOutput(evaluation: {
  value: unknown;
  logs?: readonly ConsoleLine[] | undefined;
}): ExecuteResponse {
  const logs = evaluation.logs ?? [];
  const stdout = cut(joinLines(logs, 'stdout'), MAX_EXECUTE_OUTPUT_CHARS);
  const stderr = cut(joinLines(logs, 'stderr'), MAX_EXECUTE_OUTPUT_CHARS);
  const value = resultText(evaluation.value);
  const result = cut(value === '' ? stdout.text.replace(/\n$/, '') : value, MAX_EXECUTE_OUTPUT_CHARS);
  return {
    success: true,
    stdout: stdout.text,
    result: result.text,
    stderr: stderr.text,
    exitCode: 0,
    killed: false,
    ...(stdout.cut || stderr.cut || result.cut ? { truncated: true } : {}),
  };
}

/** The response to actions that ran: their outputs, as a scrape's `actions` object, in `result`. */
export function actionsOutput(outputs: ActionOutputs): ExecuteResponse {
  const result = cut(JSON.stringify(outputs), MAX_ACTIONS_RESULT_CHARS);
  return {
    success: true,
    stdout: '',
    result: result.text,
    stderr: '',
    exitCode: 0,
    killed: false,
    ...(result.cut ? { truncated: true } : {}),
  };
}

/** The exit code of code the sandbox stopped at its memory limit, as a kill by the OOM killer reports it. */
export const KILLED_EXIT_CODE = 137;

/**
 * Code or actions that failed (`killed`: they were stopped, by the timeout unless `exitCode` says
 * otherwise), with what the code logged before it failed: the message ends stderr.
 */
export function failedOutput(
  message: string,
  { killed, logs = [], exitCode }: { killed: boolean; logs?: readonly ConsoleLine[]; exitCode?: number },
): ExecuteResponse {
  const stdout = cut(joinLines(logs, 'stdout'), MAX_EXECUTE_OUTPUT_CHARS);
  const stderr = cut(`${joinLines(logs, 'stderr')}${message}\n`, MAX_EXECUTE_OUTPUT_CHARS);
  return {
    success: true,
    stdout: stdout.text,
    result: '',
    stderr: stderr.text,
    exitCode: exitCode ?? (killed ? TIMEOUT_EXIT_CODE : 1),
    killed,
    error: message,
    ...(stdout.cut || stderr.cut ? { truncated: true } : {}),
  };
}
