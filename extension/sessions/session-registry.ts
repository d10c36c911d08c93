import type {
  SessionCommandMessage,
  SessionEventMessage,
  SessionReplyMessage,
} from '../../shared/protocol/messages';

/** A running session task as the hub connection reaches it. */
export interface SessionHandle {
  command(message: SessionCommandMessage): void;
  /** The server's `session-end`: capture the page and send the task's result. */
  end(): void;
}

export type SessionSend = (message: SessionReplyMessage | SessionEventMessage) => void;

/**
 * How long a command may wait for its session to start here: the server sends the first one as
 * soon as it has sent the task, which the browser admits (and may wipe its state for) first.
 */
export const COMMAND_WAIT_FOR_SESSION_MS = 60_000;

/**
 * The browser's running sessions by task id, so that the server's `session-command` and
 * `session-end` find theirs. A command for a session not started yet waits for it a while; one
 * for a session this browser does not run (ended, refused, or lost with a restarted worker) is
 * then answered, so the server's caller does not wait for nothing.
 */
export function createSessionRegistry({ send }: { send: SessionSend }) {
  const sessions = new Map<string, SessionHandle>();
  const early = new Map<
    string,
    { messages: SessionCommandMessage[]; ended: boolean; timer: ReturnType<typeof setTimeout> }
  >();
  const refuse = (message: SessionCommandMessage) =>
    send({
      type: 'session-reply',
      taskId: message.taskId,
      commandId: message.commandId,
      ok: false,
      error: { code: 'BROWSER_ERROR', message: 'this browser runs no such session' },
    });
  const waiting = (taskId: string) => {
    let entry = early.get(taskId);
    if (entry === undefined) {
      const created = {
        messages: [] as SessionCommandMessage[],
        ended: false,
        timer: setTimeout(() => {
          early.delete(taskId);
          created.messages.forEach(refuse);
        }, COMMAND_WAIT_FOR_SESSION_MS),
      };
      early.set(taskId, created);
      entry = created;
    }
    return entry;
  };
  return {
    /** Adds a session (and hands it what came for it early); the function returned removes it. */
    add(taskId: string, handle: SessionHandle): () => void {
      sessions.set(taskId, handle);
      const entry = early.get(taskId);
      if (entry !== undefined) {
        early.delete(taskId);
        clearTimeout(entry.timer);
        entry.messages.forEach((message) => handle.command(message));
        if (entry.ended) handle.end();
      }
      return () => {
        if (sessions.get(taskId) === handle) sessions.delete(taskId);
      };
    },
    command(message: SessionCommandMessage): void {
      const session = sessions.get(message.taskId);
      if (session !== undefined) session.command(message);
      else waiting(message.taskId).messages.push(message);
    },
    end(taskId: string): void {
      const session = sessions.get(taskId);
      if (session !== undefined) session.end();
      else if (early.has(taskId)) waiting(taskId).ended = true;
    },
    count: () => sessions.size,
  };
}

export type SessionRegistry = ReturnType<typeof createSessionRegistry>;
