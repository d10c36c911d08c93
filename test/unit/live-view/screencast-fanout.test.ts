import { describe, expect, it } from 'vitest';
import type { SessionCommand, SessionEvent } from '../../../shared/protocol/messages';
import type { LiveSession } from '../../../server/products/browser-sessions/live-session';
import { silentLog } from '../../../server/platform/log/log';
import { createScreencastFanout, type Viewer } from '../../../server/products/live-view/screencast-fanout';

function fakeSession() {
  const commands: SessionCommand[] = [];
  const listeners = new Set<(event: SessionEvent) => void>();
  const session = {
    id: 's1',
    command: async (command: SessionCommand) => {
      commands.push(command);
      return {};
    },
    onEvent(listener: (event: SessionEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as LiveSession;
  const frame = (frameSessionId: number) => {
    for (const listener of listeners) {
      listener({ kind: 'frame', data: 'x', frameSessionId, deviceWidth: 100, deviceHeight: 50 });
    }
  };
  const acks = () =>
    commands.flatMap((command) => (command.kind === 'frame-ack' ? [command.frameSessionId] : []));
  return { session, commands, listeners, frame, acks };
}

function viewer() {
  const frames: number[] = [];
  const self: Viewer & { frames: number[] } = {
    frames,
    frame: (event) => frames.push(event.frameSessionId),
    navigated: () => {},
  };
  return self;
}

describe("a session's screencast fan-out", () => {
  it('starts with the first viewer and stops with the last', () => {
    const tab = fakeSession();
    const fanout = createScreencastFanout({ session: tab.session, log: silentLog });
    const one = viewer();
    const two = viewer();
    fanout.add(one);
    fanout.add(two);
    expect(tab.commands.filter((command) => command.kind === 'screencast')).toEqual([
      { kind: 'screencast', enabled: true, quality: 60, maxWidth: 1280, maxHeight: 800 },
    ]);
    expect(fanout.remove(one)).toBe(false);
    expect(fanout.remove(two)).toBe(true);
    expect(tab.commands.at(-1)).toMatchObject({ kind: 'screencast', enabled: false });
    expect(tab.listeners.size).toBe(0);
  });

  it('acknowledges a frame to the tab once every viewer drew it or left', () => {
    const tab = fakeSession();
    const fanout = createScreencastFanout({ session: tab.session, log: silentLog });
    const one = viewer();
    const two = viewer();
    fanout.add(one);
    fanout.add(two);
    tab.frame(1);
    expect([one.frames, two.frames]).toEqual([[1], [1]]);
    fanout.ack(one, 1);
    fanout.ack(one, 1);
    expect(tab.acks()).toEqual([]);
    fanout.ack(two, 1);
    expect(tab.acks()).toEqual([1]);
    tab.frame(2);
    fanout.ack(two, 2);
    fanout.remove(one);
    expect(tab.acks()).toEqual([1, 2]);
  });

  it('shows a newcomer the last frame at once', () => {
    const tab = fakeSession();
    const fanout = createScreencastFanout({ session: tab.session, log: silentLog });
    const one = viewer();
    fanout.add(one);
    tab.frame(4);
    const late = viewer();
    fanout.add(late);
    expect(late.frames).toEqual([4]);
    // The newcomer's ack of a frame it was not waited for changes nothing.
    fanout.ack(late, 4);
    expect(tab.acks()).toEqual([]);
    fanout.ack(one, 4);
    expect(tab.acks()).toEqual([4]);
  });
});
