import { deflateSync, inflateSync } from 'node:zlib';

/**
 * Image files written from 8-bit grey pixels, for the OCR fixtures: the same picture as PNG,
 * BMP, TIFF, GIF and inside a PDF, so that a test sees each decoder read the same text. Only what
 * the fixtures need: one grey channel, no interlacing, no compression where the format makes it
 * optional.
 */
export interface GrayImage {
  width: number;
  height: number;
  /** One byte per pixel, rows top to bottom. */
  pixels: Uint8Array;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function encodePng({ width, height, pixels }: GrayImage): Buffer {
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y += 1) {
    // Filter "up" (2): text pages are mostly runs of equal rows, which it turns into zeros.
    rows[y * (width + 1)] = 2;
    for (let x = 0; x < width; x += 1) {
      const above = y === 0 ? 0 : (pixels[(y - 1) * width + x] ?? 0);
      rows[y * (width + 1) + 1 + x] = ((pixels[y * width + x] ?? 0) - above) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8 bits, greyscale, deflate, adaptive filters, no interlace
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Reads the PNGs encodePng writes (8-bit grey, any of the five filters), not PNGs in general. */
export function decodePng(file: Uint8Array): GrayImage {
  const bytes = Buffer.from(file);
  let offset = 8;
  let width = 0;
  let height = 0;
  const data: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[9] !== 0) throw new Error('only 8-bit grey PNGs are read here');
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const rows = inflateSync(Buffer.concat(data));
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const filter = rows[y * (width + 1)];
    for (let x = 0; x < width; x += 1) {
      const raw = rows[y * (width + 1) + 1 + x] ?? 0;
      const left = x === 0 ? 0 : (pixels[y * width + x - 1] ?? 0);
      const up = y === 0 ? 0 : (pixels[(y - 1) * width + x] ?? 0);
      const upLeft = x === 0 || y === 0 ? 0 : (pixels[(y - 1) * width + x - 1] ?? 0);
      const predicted =
        filter === 1
          ? left
          : filter === 2
            ? up
            : filter === 3
              ? (left + up) >> 1
              : filter === 4
                ? paeth(left, up, upLeft)
                : 0;
      pixels[y * width + x] = (raw + predicted) & 0xff;
    }
  }
  return { width, height, pixels };
}

/** An 8-bit BMP with a grey palette (BITMAPINFOHEADER, rows bottom-up, padded to 4 bytes). */
export function encodeBmp({ width, height, pixels }: GrayImage): Buffer {
  const stride = (width + 3) & ~3;
  const paletteBytes = 256 * 4;
  const dataOffset = 14 + 40 + paletteBytes;
  const file = Buffer.alloc(dataOffset + stride * height);
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(dataOffset, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(width, 18);
  file.writeInt32LE(height, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(8, 28);
  file.writeUInt32LE(stride * height, 34);
  file.writeUInt32LE(256, 46);
  for (let level = 0; level < 256; level += 1) file.set([level, level, level, 0], 54 + level * 4);
  for (let y = 0; y < height; y += 1) {
    file.set(pixels.subarray(y * width, (y + 1) * width), dataOffset + (height - 1 - y) * stride);
  }
  return file;
}

/** A baseline TIFF: one strip, uncompressed, 8-bit grey (black is zero). */
export function encodeTiff({ width, height, pixels }: GrayImage): Buffer {
  const entries: Array<[tag: number, type: number, value: number]> = [
    [256, 4, width], // ImageWidth
    [257, 4, height], // ImageLength
    [258, 3, 8], // BitsPerSample
    [259, 3, 1], // Compression: none
    [262, 3, 1], // PhotometricInterpretation: black is zero
    [273, 4, 0], // StripOffsets, set below
    [277, 3, 1], // SamplesPerPixel
    [278, 4, height], // RowsPerStrip
    [279, 4, width * height], // StripByteCounts
  ];
  const ifdOffset = 8;
  const ifdBytes = 2 + entries.length * 12 + 4;
  const dataOffset = ifdOffset + ifdBytes;
  const file = Buffer.alloc(dataOffset + width * height);
  file.write('II', 0, 'latin1');
  file.writeUInt16LE(42, 2);
  file.writeUInt32LE(ifdOffset, 4);
  file.writeUInt16LE(entries.length, ifdOffset);
  entries.forEach(([tag, type, value], index) => {
    const at = ifdOffset + 2 + index * 12;
    file.writeUInt16LE(tag, at);
    file.writeUInt16LE(type, at + 2);
    file.writeUInt32LE(1, at + 4);
    if (type === 3) file.writeUInt16LE(value, at + 8);
    else file.writeUInt32LE(tag === 273 ? dataOffset : value, at + 8);
  });
  file.set(pixels, dataOffset);
  return file;
}

/**
 * A GIF of 16 grey levels. LZW is written without ever growing the code table past its first
 * entries (a clear code every few codes), which every decoder reads and which keeps this short.
 */
export function encodeGif({ width, height, pixels }: GrayImage): Buffer {
  const minCodeSize = 4;
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const codeBits = minCodeSize + 1;
  const out: number[] = [];
  let bitBuffer = 0;
  let bitCount = 0;
  const emit = (code: number) => {
    bitBuffer |= code << bitCount;
    bitCount += codeBits;
    while (bitCount >= 8) {
      out.push(bitBuffer & 0xff);
      bitBuffer >>= 8;
      bitCount -= 8;
    }
  };
  emit(clear);
  for (let index = 0; index < pixels.length; index += 1) {
    // After clear, each code adds a table entry: 14 codes keep it below 2^5 entries.
    if (index % 14 === 13) emit(clear);
    emit((pixels[index] ?? 0) >> 4);
  }
  emit(end);
  if (bitCount > 0) out.push(bitBuffer & 0xff);
  const blocks: number[] = [];
  for (let at = 0; at < out.length; at += 255) {
    const block = out.slice(at, at + 255);
    blocks.push(block.length, ...block);
  }
  blocks.push(0);
  const header = Buffer.alloc(13);
  header.write('GIF89a', 0, 'latin1');
  header.writeUInt16LE(width, 6);
  header.writeUInt16LE(height, 8);
  header[10] = 0x80 | 0x03; // global colour table of 16 entries
  const palette = Buffer.alloc(16 * 3);
  for (let level = 0; level < 16; level += 1) palette.fill(level * 17, level * 3, level * 3 + 3);
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  descriptor.writeUInt16LE(width, 5);
  descriptor.writeUInt16LE(height, 7);
  return Buffer.concat([
    header,
    palette,
    descriptor,
    Buffer.from([minCodeSize]),
    Buffer.from(blocks),
    Buffer.from([0x3b]),
  ]);
}

function pngChunk(type: string, body: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + body.length);
  chunk.writeUInt32BE(body.length, 0);
  chunk.write(type, 4, 'latin1');
  body.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + body.length)), 8 + body.length);
  return chunk;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
