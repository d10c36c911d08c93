import type { z } from 'zod';
import type {
  BrowserClass,
  SessionCommand,
  SessionEvent,
  SessionResult,
} from '../../../shared/protocol/messages';

/** What a command of kind K answers. */
export type SessionResultOf<K extends SessionCommand['kind']> = z.infer<(typeof SessionResult)[K]>;

/**
 * A running browser session as the rest of the server sees it: one leased tab of a team's browser
 * (launched, or donated by the same team) that takes commands until it ends. The session service
 * (browser sessions, a scrape's interact) makes them; the live view and the CDP relay use them.
 */
export interface LiveSession {
  readonly id: string;
  readonly teamId: string;
  readonly browserClass: BrowserClass;
  /** Runs in one of the team's donated browsers (a person's own browser). */
  readonly donated: boolean;
  /** Unguessable secrets in the live view URLs: the watching one and the interactive one. */
  readonly liveViewToken: string;
  readonly interactiveToken: string;
  readonly expiresAt: Date;
  /**
   * Sends one command to the session's tab. Rejects with a TaskError (server/browsers/hub/task-error.ts)
   * when the tab refuses or fails it, when it takes longer than `timeoutMs`, or when the session
   * ends first. Every command counts as activity (activityTtl).
   */
  command<K extends SessionCommand['kind']>(
    command: Extract<SessionCommand, { kind: K }>,
    timeoutMs?: number,
  ): Promise<SessionResultOf<K>>;
  /** Listens to the tab's events (screencast frames, CDP events, navigations); returns the unsubscribe. */
  onEvent(listener: (event: SessionEvent) => void): () => void;
  /** Settles once the session has ended, for whatever reason. */
  readonly ended: Promise<void>;
  /** Counts as activity without a command (a person watching and moving the mouse). */
  touch(): void;
}

/** Where the live view and the CDP relay find running sessions. */
export interface LiveSessionDirectory {
  /** A running session by id, for its own team only. */
  get(id: string, teamId: string): LiveSession | undefined;
  /** A running session by one of its live view tokens, and which one it was. */
  byViewToken(token: string): { session: LiveSession; interactive: boolean } | undefined;
}
