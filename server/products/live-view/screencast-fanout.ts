import type { SessionEvent } from '../../../shared/protocol/messages';
import type { LiveSession } from '../browser-sessions';
import type { Log } from '../../platform/log';

type FrameEvent = Extract<SessionEvent, { kind: 'frame' }>;
type NavigatedEvent = Extract<SessionEvent, { kind: 'navigated' }>;

/** Someone watching a session's live view. */
export interface Viewer {
  frame(frame: FrameEvent): void;
  navigated(event: NavigatedEvent): void;
}

/** What the live view asks of the tab's screencast: small JPEG frames, enough to read a page. */
export const LIVE_VIEW_SCREENCAST = { quality: 60, maxWidth: 1280, maxHeight: 800 } as const;

/**
 * One session's screencast shared by everyone watching it: started when the first viewer comes,
 * stopped when the last one leaves. Each frame goes to every viewer, and the tab hears `frame-ack`
 * once every viewer that got it has drawn it (or left), so the slowest viewer sets the pace and
 * frames never pile up in between.
 */
export function createScreencastFanout({ session, log }: { session: LiveSession; log: Log }) {
  const viewers = new Set<Viewer>();
  /** Frames still waiting for some viewer's ack, by frame id. */
  const unacked = new Map<number, Set<Viewer>>();
  let stopListening: (() => void) | undefined;
  /** A viewer who comes while the page stands still sees it at once, not with the next change. */
  let lastFrame: FrameEvent | undefined;

  const ackToTab = (frameSessionId: number) => {
    unacked.delete(frameSessionId);
    session.command({ kind: 'frame-ack', frameSessionId }).catch(() => {
      // The session ended or the screencast stopped: no next frame to ask for.
    });
  };

  const onEvent = (event: SessionEvent) => {
    if (event.kind === 'navigated') {
      for (const viewer of viewers) viewer.navigated(event);
      return;
    }
    if (event.kind !== 'frame') return;
    lastFrame = event;
    if (viewers.size === 0) return ackToTab(event.frameSessionId);
    unacked.set(event.frameSessionId, new Set(viewers));
    for (const viewer of viewers) viewer.frame(event);
  };

  const setScreencast = (enabled: boolean) =>
    session.command({ kind: 'screencast', enabled, ...LIVE_VIEW_SCREENCAST }).catch((err: unknown) => {
      log.info('live view screencast command failed', { session: session.id, enabled, error: String(err) });
    });

  return {
    add(viewer: Viewer) {
      viewers.add(viewer);
      if (stopListening !== undefined) {
        if (lastFrame !== undefined) viewer.frame(lastFrame);
        return;
      }
      stopListening = session.onEvent(onEvent);
      void setScreencast(true);
    },
    /** A viewer drew a frame. */
    ack(viewer: Viewer, frameSessionId: number) {
      const waiting = unacked.get(frameSessionId);
      if (waiting === undefined || !waiting.delete(viewer)) return;
      if (waiting.size === 0) ackToTab(frameSessionId);
    },
    /** Returns whether nobody watches any more. */
    remove(viewer: Viewer): boolean {
      if (!viewers.delete(viewer)) return viewers.size === 0;
      for (const [frameSessionId, waiting] of unacked) {
        if (waiting.delete(viewer) && waiting.size === 0) ackToTab(frameSessionId);
      }
      if (viewers.size > 0) return false;
      stopListening?.();
      stopListening = undefined;
      unacked.clear();
      lastFrame = undefined;
      void setScreencast(false);
      return true;
    },
  };
}

export type ScreencastFanout = ReturnType<typeof createScreencastFanout>;
