import type { SessionEvent } from '../../shared/protocol/messages';
import type { CdpSession } from '../debugger/cdp-session';
import type { DirectCdp } from './cdp-direct';

type FrameEvent = Extract<SessionEvent, { kind: 'frame' }>;

export interface ScreencastOptions {
  quality: number;
  maxWidth: number;
  maxHeight: number;
}

/**
 * The tab's screencast for the live view, with backpressure: one frame travels to the viewer at a
 * time. A frame that arrives meanwhile waits (the newest replaces an older waiting one, which is
 * acknowledged to Chromium at once so that it does not count against Chromium's own frames in
 * flight); the viewer's `frame-ack` acknowledges the travelling frame and sends the waiting one.
 */
export function createLiveScreencast({
  cdp,
  emit,
  direct,
}: {
  cdp: CdpSession;
  emit(event: SessionEvent): void;
  direct: DirectCdp;
}) {
  let stopListening: (() => void) | undefined;
  let inFlight: number | undefined;
  let waiting: FrameEvent | undefined;

  const chromiumAck = (frameSessionId: number) =>
    direct('Page.screencastFrameAck', { sessionId: frameSessionId }).catch(() => {
      // The screencast stopped or the tab went away meanwhile: nothing to acknowledge.
    });

  const onFrame = (params: Record<string, unknown>) => {
    const frame = toFrameEvent(params);
    if (frame === undefined) return;
    if (inFlight === undefined) {
      inFlight = frame.frameSessionId;
      emit(frame);
      return;
    }
    if (waiting !== undefined) void chromiumAck(waiting.frameSessionId);
    waiting = frame;
  };

  const reset = () => {
    stopListening?.();
    stopListening = undefined;
    inFlight = undefined;
    waiting = undefined;
  };

  return {
    async start({ quality, maxWidth, maxHeight }: ScreencastOptions) {
      reset();
      stopListening = cdp.onEvent((method, params) => {
        if (method === 'Page.screencastFrame') onFrame(params);
      });
      await direct('Page.startScreencast', {
        format: 'jpeg',
        quality,
        maxWidth,
        maxHeight,
        everyNthFrame: 1,
      });
    },
    async ack(frameSessionId: number) {
      await chromiumAck(frameSessionId);
      if (frameSessionId !== inFlight) return;
      inFlight = undefined;
      const next = waiting;
      waiting = undefined;
      if (next !== undefined) {
        inFlight = next.frameSessionId;
        emit(next);
      }
    },
    async stop() {
      const running = stopListening !== undefined;
      reset();
      if (running) await direct('Page.stopScreencast').catch(() => undefined);
    },
  };
}

/** A `Page.screencastFrame` event as the live view's frame event (undefined when malformed). */
export function toFrameEvent(params: Record<string, unknown>): FrameEvent | undefined {
  const { data, sessionId, metadata } = params as {
    data?: unknown;
    sessionId?: unknown;
    metadata?: Record<string, unknown>;
  };
  if (typeof data !== 'string' || typeof sessionId !== 'number' || metadata === undefined) return undefined;
  const number = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  const deviceWidth = number(metadata['deviceWidth']);
  const deviceHeight = number(metadata['deviceHeight']);
  if (deviceWidth === undefined || deviceHeight === undefined) return undefined;
  const pageScaleFactor = number(metadata['pageScaleFactor']);
  const offsetTop = number(metadata['offsetTop']);
  return {
    kind: 'frame',
    data,
    frameSessionId: sessionId,
    deviceWidth,
    deviceHeight,
    ...(pageScaleFactor === undefined ? {} : { pageScaleFactor }),
    ...(offsetTop === undefined ? {} : { offsetTop }),
  };
}
