import { createInflate } from 'node:zlib';
import { DerivationLimit } from '../../workers/derivation-errors';

/** How far before `stream` a stream's dictionary may start; real ones are far shorter. */
const DICTIONARY_REACH = 4096;
const STREAM_KEYWORD = /\bstream(?:\r\n|\n|\r)/g;
const FILTER = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/;

/**
 * Refuses a PDF whose Flate streams inflate to more than `maxBytes` together, before pdf.js reads
 * it: pdf.js keeps every byte it inflates, outside the worker's heap limit, and a deflate stream
 * packs text operators about 400:1. The streams are inflated here only to be counted, chunk by
 * chunk, and counting stops at the limit. Streams whose first filter is not Flate are left to the
 * text and time limits of the derivation.
 */
export async function checkPdfInflation(bytes: Uint8Array, maxBytes: number): Promise<void> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let total = 0;
  for (const match of text.matchAll(STREAM_KEYWORD)) {
    const at = match.index;
    const dictionary = text.slice(Math.max(0, at - DICTIONARY_REACH), at);
    const filters = FILTER.exec(dictionary.slice(dictionary.lastIndexOf('obj') + 1))?.[1];
    const first = filters?.replace(/[[\]]/g, ' ').trim().split(/\s+/)[0];
    if (first !== '/FlateDecode' && first !== '/Fl') continue;
    const start = at + match[0].length;
    const end = text.indexOf('endstream', start);
    total += await inflatedBytes(bytes.subarray(start, end < 0 ? bytes.length : end), maxBytes - total);
    if (total > maxBytes) {
      throw new DerivationLimit(
        `The PDF's compressed streams unpack to more than ${maxBytes} bytes, the most one document may (a compression bomb)`,
      );
    }
  }
}

/** Bytes `data` inflates to, counted up to one past `limit`; a corrupt stream counts what inflated. */
function inflatedBytes(data: Uint8Array, limit: number): Promise<number> {
  return new Promise((resolve) => {
    let count = 0;
    const inflate = createInflate({ chunkSize: 256 * 1024 });
    const done = () => resolve(count);
    inflate.on('data', (chunk: Buffer) => {
      count += chunk.length;
      if (count > limit) {
        inflate.destroy();
        done();
      }
    });
    inflate.on('end', done);
    inflate.on('error', done);
    inflate.on('close', done);
    inflate.end(data);
  });
}
