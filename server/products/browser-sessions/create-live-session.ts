import { randomBytes, randomUUID } from 'node:crypto';
import {
  SessionResult,
  type BrowserClass,
  type SessionCommand,
  type SessionCommandMessage,
  type SessionEvent,
  type SessionReplyMessage,
} from '../../../shared/protocol/messages';
import { TaskError } from '../../browsers/hub';
import type { LiveSession, SessionResultOf } from './live-session';

/** Commands without a time of their own (snapshot, the live view's) get this long for an answer. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 15_000;
/** On top of a command's own time (evaluate, actions, navigate): the trip to the browser and back. */
export const COMMAND_MARGIN_MS = 5_000;

/** 32 random bytes, base64url: a live view URL's secret. */
export const viewToken = () => randomBytes(32).toString('base64url');

interface Pending {
  kind: SessionCommand['kind'];
  resolve(value: unknown): void;
  reject(error: TaskError): void;
  timer: NodeJS.Timeout;
}

/** The running session as the service holds it: the LiveSession, plus what feeds it. */
export interface LiveSessionControl {
  session: LiveSession;
  /** A reply or an event the browser sent for this session's task. */
  deliver(message: SessionReplyMessage | { type: 'session-event'; event: SessionEvent }): void;
  /** Ends it: pending commands fail with `error`, `ended` settles. Idempotent. */
  close(error: TaskError): void;
  readonly closed: boolean;
}

const commandTimeoutMs = (command: SessionCommand) =>
  'timeoutMs' in command ? command.timeoutMs + COMMAND_MARGIN_MS : DEFAULT_COMMAND_TIMEOUT_MS;

/**
 * One session's command channel: each command gets an id, goes to the browser through `send`,
 * and waits for the `session-reply` with that id, parsed per kind (SessionResult). Every command
 * and every `touch` tells `onActivity` (the service's idle timer).
 */
export function createLiveSession({
  id,
  teamId,
  browserClass,
  donated,
  expiresAt,
  send,
  onActivity,
}: {
  id: string;
  teamId: string;
  browserClass: BrowserClass;
  donated: boolean;
  expiresAt: Date;
  /** False when no browser runs the session's task any more. */
  send(message: SessionCommandMessage): boolean;
  onActivity(): void;
}): LiveSessionControl {
  const pending = new Map<string, Pending>();
  const listeners = new Set<(event: SessionEvent) => void>();
  let closed = false;
  let markEnded: () => void = () => {};
  const ended = new Promise<void>((resolve) => (markEnded = resolve));

  const settle = (commandId: string) => {
    const entry = pending.get(commandId);
    if (entry === undefined) return undefined;
    pending.delete(commandId);
    clearTimeout(entry.timer);
    return entry;
  };

  const session: LiveSession = {
    id,
    teamId,
    browserClass,
    donated,
    liveViewToken: viewToken(),
    interactiveToken: viewToken(),
    expiresAt,
    command<K extends SessionCommand['kind']>(
      command: Extract<SessionCommand, { kind: K }>,
      timeoutMs = commandTimeoutMs(command),
    ): Promise<SessionResultOf<K>> {
      if (closed) return Promise.reject(new TaskError('TASK_CANCELLED', 'The browser session has ended'));
      onActivity();
      const commandId = randomUUID();
      return new Promise<SessionResultOf<K>>((resolve, reject) => {
        pending.set(commandId, {
          kind: command.kind,
          resolve: resolve as (value: unknown) => void,
          reject,
          timer: setTimeout(() => {
            settle(commandId)?.reject(
              new TaskError('SCRAPE_TIMEOUT', `The browser did not answer within ${timeoutMs} ms`),
            );
          }, timeoutMs),
        });
        if (!send({ type: 'session-command', taskId: id, commandId, command })) {
          settle(commandId)?.reject(new TaskError('BROWSER_LOST', "The session's browser is not connected"));
        }
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    ended,
    touch: () => {
      if (!closed) onActivity();
    },
  };

  return {
    session,
    deliver(message) {
      if (message.type === 'session-event') {
        for (const listener of listeners) listener(message.event);
        return;
      }
      const entry = settle(message.commandId);
      if (entry === undefined) return;
      if (!message.ok) {
        entry.reject(new TaskError(message.error.code, message.error.message));
        return;
      }
      const parsed = SessionResult[entry.kind].safeParse(message.result);
      if (parsed.success) entry.resolve(parsed.data);
      else
        entry.reject(new TaskError('BROWSER_ERROR', `the browser's answer to ${entry.kind} was malformed`));
    },
    close(error) {
      if (closed) return;
      closed = true;
      for (const commandId of [...pending.keys()]) settle(commandId)?.reject(error);
      listeners.clear();
      markEnded();
    },
    get closed() {
      return closed;
    },
  };
}
