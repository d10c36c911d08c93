import { randomBytes } from 'node:crypto';

/** What IO.read hands out when the client names no size (Chromium's own chunk is of this order). */
const DEFAULT_CHUNK_BYTES = 1024 * 1024;
const MAX_CHUNK_BYTES = 16 * 1024 * 1024;
/** Streams a client may leave unclosed; beyond, the oldest goes (a client reads one PDF at a time). */
const MAX_OPEN_STREAMS = 4;

/** A relay client's stream: the bytes and how far IO.read has come. */
interface RelayStream {
  data: Buffer;
  offset: number;
}

/**
 * Protocol streams (`IO.read`, `IO.close`) that a relay connection serves itself. Puppeteer's and
 * Playwright's `page.pdf()` ask `Page.printToPDF` for `transferMode: 'ReturnAsStream'` and then
 * read the stream; the tab is asked for the whole PDF as base64 instead and the relay keeps it
 * here, so the tab never receives an `IO.*` command, whose handles could name more than the page's
 * own output (blobs of other origins).
 */
export function createCdpRelayStreams() {
  const streams = new Map<string, RelayStream>();

  return {
    /** Keeps base64 `data` as a stream and answers its handle. */
    open(base64: string): string {
      const handle = `tabhive-relay-stream-${randomBytes(8).toString('hex')}`;
      const oldest = streams.size >= MAX_OPEN_STREAMS ? streams.keys().next().value : undefined;
      if (oldest !== undefined) streams.delete(oldest);
      streams.set(handle, { data: Buffer.from(base64, 'base64'), offset: 0 });
      return handle;
    },
    has(handle: unknown): handle is string {
      return typeof handle === 'string' && streams.has(handle);
    },
    /** IO.read: the next chunk (from `offset` when given), base64, and whether the stream ended. */
    read(handle: string, params: Record<string, unknown>) {
      const stream = streams.get(handle);
      if (stream === undefined) throw new Error('Invalid stream handle');
      const { offset, size } = params;
      if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) stream.offset = offset;
      const wanted =
        typeof size === 'number' && Number.isInteger(size) && size > 0
          ? Math.min(size, MAX_CHUNK_BYTES)
          : DEFAULT_CHUNK_BYTES;
      const start = Math.min(stream.offset, stream.data.length);
      const chunk = stream.data.subarray(start, start + wanted);
      stream.offset = start + chunk.length;
      return {
        base64Encoded: true,
        data: chunk.toString('base64'),
        eof: stream.offset >= stream.data.length,
      };
    },
    close(handle: string): void {
      streams.delete(handle);
    },
    /** The client went away: its streams go with it. */
    clear(): void {
      streams.clear();
    },
  };
}

export type CdpRelayStreams = ReturnType<typeof createCdpRelayStreams>;
