import { createInflate, type Inflate } from 'node:zlib';
import { DerivationLimit } from '../derivation-errors';

const STREAM_KEYWORD = /\bstream(?:\r\n|\n|\r)/g;
/** Flate inside Flate (`/Filter [/FlateDecode /FlateDecode]`) is followed this deep. */
const MAX_NESTED_FLATE = 4;

/**
 * Refuses a PDF whose Flate streams inflate to more than `maxBytes` together, before pdf.js reads
 * it: pdf.js keeps every byte it inflates, outside the worker's heap limit, and a deflate stream
 * packs text operators about 400:1. Every stream is tried, whatever its dictionary declares: a
 * dictionary is the sender's to shape (a key placed so that a parser misses the filter), while
 * bytes that are not zlib fail at their first chunk and count nothing. What inflates to zlib again
 * is inflated in turn, as a chain of Flate filters would be. Counting stops at the limit. Streams
 * behind other filters first (ASCII85, LZW) are left to the text and time limits of the derivation.
 */
export async function checkPdfInflation(bytes: Uint8Array, maxBytes: number): Promise<void> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let total = 0;
  for (const match of text.matchAll(STREAM_KEYWORD)) {
    const start = match.index + match[0].length;
    if (!looksLikeZlib(bytes[start], bytes[start + 1])) continue;
    const end = text.indexOf('endstream', start);
    total += await inflatedBytes(bytes.subarray(start, end < 0 ? bytes.length : end), maxBytes - total);
    if (total > maxBytes) {
      throw new DerivationLimit(
        `The PDF's compressed streams unpack to more than ${maxBytes} bytes, the most one document may (a compression bomb)`,
      );
    }
  }
}

/** A zlib header (RFC 1950): deflate with a window of at most 32 KiB, and the header's check bits. */
function looksLikeZlib(first: number | undefined, second: number | undefined): boolean {
  if (first === undefined || second === undefined) return false;
  return (first & 0x0f) === 8 && first >> 4 <= 7 && (first * 256 + second) % 31 === 0;
}

/**
 * Bytes `data` inflates to, counted up to one past `limit`; a corrupt stream counts what inflated.
 * When the output is zlib again, the innermost layer's bytes are what counts.
 */
function inflatedBytes(data: Uint8Array, limit: number): Promise<number> {
  return new Promise((resolve) => {
    let settled = false;
    const layers: Inflate[] = [];
    let count = 0;
    const finish = () => {
      if (settled) return;
      settled = true;
      for (const layer of layers) layer.destroy();
      resolve(count);
    };
    const addLayer = (depth: number): Inflate => {
      const inflate = createInflate({ chunkSize: 256 * 1024 });
      layers.push(inflate);
      let inner: Inflate | undefined;
      let decided = false;
      inflate.on('data', (chunk: Buffer) => {
        if (!decided) {
          decided = true;
          if (depth < MAX_NESTED_FLATE && looksLikeZlib(chunk[0], chunk[1])) inner = addLayer(depth + 1);
        }
        if (inner !== undefined) {
          inner.write(chunk);
          return;
        }
        count += chunk.length;
        if (count > limit) finish();
      });
      inflate.on('end', () => (inner === undefined ? finish() : inner.end()));
      inflate.on('error', () => (inner === undefined ? finish() : inner.end()));
      return inflate;
    };
    addLayer(0).end(data);
  });
}
