import { describe, expect, it } from 'vitest';
import { createCdpRelayStreams } from '../../../server/products/live-view/cdp-relay-streams';

const base64 = (text: string) => Buffer.from(text).toString('base64');
const decoded = (chunk: { data: string }) => Buffer.from(chunk.data, 'base64').toString();

describe("the cdpUrl relay's own protocol streams", () => {
  it('reads a stream to its end in chunks, as IO.read does, and forgets it on close', () => {
    const streams = createCdpRelayStreams();
    const handle = streams.open(base64('%PDF-1.4 hello'));
    expect(streams.has(handle)).toBe(true);
    expect(streams.has('another-handle')).toBe(false);
    expect(streams.has(undefined)).toBe(false);

    const first = streams.read(handle, { size: 5 });
    expect(first).toMatchObject({ base64Encoded: true, eof: false });
    expect(decoded(first)).toBe('%PDF-');
    const rest = streams.read(handle, {});
    expect(decoded(rest)).toBe('1.4 hello');
    expect(rest.eof).toBe(true);
    // Past the end: nothing more, still at its end.
    expect(streams.read(handle, {})).toEqual({ base64Encoded: true, data: '', eof: true });
    // An offset reads again from there.
    expect(decoded(streams.read(handle, { offset: 9 }))).toBe('hello');

    streams.close(handle);
    expect(streams.has(handle)).toBe(false);
    expect(() => streams.read(handle, {})).toThrow(/Invalid stream handle/);
  });

  it('keeps a few unclosed streams and drops the oldest beyond them, and clears them all', () => {
    const streams = createCdpRelayStreams();
    const handles = Array.from({ length: 5 }, (_, index) => streams.open(base64(`pdf ${index}`)));
    expect(new Set(handles).size).toBe(5);
    expect(handles.map((handle) => streams.has(handle))).toEqual([false, true, true, true, true]);
    expect(decoded(streams.read(handles[4] as string, {}))).toBe('pdf 4');
    streams.clear();
    expect(handles.some((handle) => streams.has(handle))).toBe(false);
  });
});
