import { inflateRawSync } from 'node:zlib';
import { DocumentProblem } from '../document-problem';
import { readZipDirectory, type ZipEntry } from './read-zip-directory';
import type { ZipLimits } from './zip-limits';

const LOCAL_HEADER = 0x04034b50;
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/** A zip archive whose entries are inflated on demand, each within the limits, all within the total. */
export interface OpenZip {
  readonly entries: readonly ZipEntry[];
  has(name: string): boolean;
  /** The entry's bytes (inflated once, then kept), or undefined when the archive has no such entry. */
  read(name: string): Uint8Array | undefined;
}

const limitHit = (message: string) => new DocumentProblem('archive-limit', message);

/**
 * Opens a zip archive for reading under `limits`. Before an entry is inflated its declared size
 * must fit the entry limit, what is left of the total and the compression ratio; zlib then stops
 * at one byte past the declared size (`maxOutputLength`), so a bomb whose header claims a small
 * size is refused after that many bytes, never after what it really holds. Encrypted entries,
 * other compression methods, and an entry that is itself a zip archive (a nested archive is never
 * opened) are refused.
 */
export function openZip(bytes: Uint8Array, limits: ZipLimits): OpenZip {
  const entries = readZipDirectory(bytes, limits.maxEntries);
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const inflated = new Map<string, Uint8Array>();
  let inflatedTotal = 0;

  const inflate = (entry: ZipEntry): Uint8Array => {
    const { name, uncompressedSize: declared, compressedSize } = entry;
    if (entry.encrypted) throw new DocumentProblem('broken', `the zip entry ${name} is encrypted`);
    if (declared > limits.maxEntryBytes) {
      throw limitHit(
        `the zip entry ${name} unpacks to ${declared} bytes; one entry may unpack to ${limits.maxEntryBytes}`,
      );
    }
    if (inflatedTotal + declared > limits.maxTotalBytes) {
      throw limitHit(`the zip archive unpacks to more than ${limits.maxTotalBytes} bytes`);
    }
    if (declared > limits.ratioFloorBytes && declared > compressedSize * limits.maxRatio) {
      throw limitHit(
        `the zip entry ${name} packs ${declared} bytes into ${compressedSize} (more than ${limits.maxRatio}:1, a zip bomb)`,
      );
    }
    const data = entryData(bytes, entry);
    let output: Uint8Array;
    if (entry.method === 0) {
      output = data;
    } else if (entry.method === 8) {
      try {
        output = inflateRawSync(data, { maxOutputLength: declared + 1 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
          throw limitHit(
            `the zip entry ${name} unpacks to more than the ${declared} bytes its header declares (a zip bomb)`,
          );
        }
        throw new DocumentProblem('broken', `the zip entry ${name} is corrupt (${(err as Error).message})`);
      }
    } else {
      throw new DocumentProblem(
        'broken',
        `the zip entry ${name} uses compression method ${entry.method}; only stored and deflated entries are read`,
      );
    }
    if (output.length !== declared) {
      throw new DocumentProblem(
        'broken',
        `the zip entry ${name} unpacks to ${output.length} bytes but its header declares ${declared} (truncated or corrupt)`,
      );
    }
    if (ZIP_MAGIC.every((byte, index) => output[index] === byte)) {
      throw new DocumentProblem(
        'broken',
        `the zip entry ${name} is itself a zip archive; nested archives are not opened`,
      );
    }
    inflatedTotal += declared;
    return output;
  };

  return {
    entries,
    has: (name) => byName.has(name),
    read(name) {
      const entry = byName.get(name);
      if (entry === undefined) return undefined;
      const known = inflated.get(name);
      if (known !== undefined) return known;
      const bytes = inflate(entry);
      inflated.set(name, bytes);
      return bytes;
    },
  };
}

/** The packed bytes of an entry, found through its local header (APPNOTE.TXT §4.3.7). */
function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_HEADER) {
    throw new DocumentProblem(
      'broken',
      `the zip archive is truncated or corrupt (no local header for ${entry.name})`,
    );
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) {
    throw new DocumentProblem(
      'broken',
      `the zip archive is truncated (the entry ${entry.name} runs past its end)`,
    );
  }
  return bytes.subarray(start, end);
}
