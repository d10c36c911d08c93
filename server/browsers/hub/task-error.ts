import { TaskErrorCode } from '../../../shared/protocol/messages';

/** Why a page task did not produce a capture. Browser-reported codes plus the hub's own. */
export type TaskFailureCode =
  | TaskErrorCode
  | 'NO_BROWSER'
  | 'NO_STEALTH_BROWSER'
  | 'BROWSER_LOST'
  /** The team's donated browser for the URL does not allow what the task asks (executeJavascript). */
  | 'DONATED_BROWSER_REFUSED'
  /** A task only the team's donated browser may run found none that took it in time. */
  | 'DONATED_BROWSER_UNAVAILABLE';

export class TaskError extends Error {
  readonly code: TaskFailureCode;
  constructor(code: TaskFailureCode, message: string) {
    super(message);
    this.name = 'TaskError';
    this.code = code;
  }
}

const HUB_CODES: readonly string[] = [
  'NO_BROWSER',
  'NO_STEALTH_BROWSER',
  'BROWSER_LOST',
  'DONATED_BROWSER_REFUSED',
  'DONATED_BROWSER_UNAVAILABLE',
];

/** Whether a code read back from elsewhere (a relayed task's answer in the store) is one of ours. */
export const isTaskFailureCode = (code: unknown): code is TaskFailureCode =>
  TaskErrorCode.safeParse(code).success || (typeof code === 'string' && HUB_CODES.includes(code));
