import { DocumentProblem } from '../document-problem';

/** One file of a zip archive, as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; anything else is refused when the entry is read. */
  method: number;
  encrypted: boolean;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const END_RECORD_BYTES = 22;
const MAX_COMMENT_BYTES = 0xffff;
/** Values that mean "see the ZIP64 record": no document within the upload cap needs one. */
const ZIP64_MARKERS = new Set([0xffff, 0xffffffff]);

const broken = (problem: string) => new DocumentProblem('broken', `the zip archive is ${problem}`);

/**
 * The entries of a zip archive from its central directory (APPNOTE.TXT §4.3.12–16), without
 * inflating anything. Refuses split, ZIP64 and truncated archives and more than `maxEntries`
 * entries, before reading them.
 */
export function readZipDirectory(bytes: Uint8Array, maxEntries: number): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndRecord(view);
  if (end < 0) throw broken('truncated or corrupt (no end of central directory record)');
  const disk = view.getUint16(end + 4, true);
  const directoryDisk = view.getUint16(end + 6, true);
  const count = view.getUint16(end + 10, true);
  const size = view.getUint32(end + 12, true);
  const offset = view.getUint32(end + 16, true);
  if (disk !== 0 || directoryDisk !== 0) throw broken('split over several files, which is not supported');
  if (ZIP64_MARKERS.has(count) || ZIP64_MARKERS.has(size) || ZIP64_MARKERS.has(offset)) {
    throw broken('in ZIP64 form, which no document within the upload limit needs');
  }
  if (count > maxEntries) {
    throw new DocumentProblem(
      'archive-limit',
      `the zip archive has ${count} entries; at most ${maxEntries} are read`,
    );
  }
  if (offset + size > end) throw broken('truncated or corrupt (the central directory lies outside the file)');

  const entries: ZipEntry[] = [];
  let at = offset;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > end || view.getUint32(at, true) !== DIRECTORY_ENTRY) {
      throw broken('corrupt (a central directory entry is damaged)');
    }
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const compressedSize = view.getUint32(at + 20, true);
    const uncompressedSize = view.getUint32(at + 24, true);
    const localHeaderOffset = view.getUint32(at + 42, true);
    if (at + 46 + nameLength > end) throw broken('corrupt (an entry name runs past the directory)');
    if ([compressedSize, uncompressedSize, localHeaderOffset].includes(0xffffffff)) {
      throw broken('in ZIP64 form, which no document within the upload limit needs');
    }
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
    // Bit 11: the name is UTF-8; otherwise CP437, whose ASCII part is all that OOXML and ODF use.
    const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'latin1').decode(nameBytes);
    entries.push({
      name,
      method: view.getUint16(at + 10, true),
      encrypted: (flags & 0x1) !== 0,
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The end of central directory record: the last signature within the largest comment's reach. */
function findEndRecord(view: DataView): number {
  const last = view.byteLength - END_RECORD_BYTES;
  const first = Math.max(0, last - MAX_COMMENT_BYTES);
  for (let at = last; at >= first; at -= 1) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) return at;
  }
  return -1;
}
