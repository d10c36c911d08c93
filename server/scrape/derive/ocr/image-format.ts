/** A raster image's type and size, read from its header alone (nothing is decoded). */
export interface ImageFormat {
  mimeType: string;
  label: string;
  width: number;
  height: number;
}

/** The image types OCR reads (Leptonica's decoders inside tesseract.js-core). */
export const OCR_IMAGE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/bmp',
  'image/tiff',
  'image/webp',
];

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', start, end);

/**
 * The type and dimensions of a PNG, JPEG, GIF, BMP, TIFF or WebP image, or undefined for anything
 * else (or a header too broken to give its size).
 */
export function readImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = (mimeType: string, label: string, width: number, height: number) =>
    width > 0 && height > 0 ? { mimeType, label, width, height } : undefined;
  try {
    if (bytes[0] === 0x89 && ascii(bytes, 1, 4) === 'PNG') {
      return size('image/png', 'PNG image', view.getUint32(16), view.getUint32(20));
    }
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes, view);
    if (ascii(bytes, 0, 4) === 'GIF8') {
      return size('image/gif', 'GIF image', view.getUint16(6, true), view.getUint16(8, true));
    }
    if (ascii(bytes, 0, 2) === 'BM') {
      return size('image/bmp', 'BMP image', view.getInt32(18, true), Math.abs(view.getInt32(22, true)));
    }
    if (ascii(bytes, 0, 4) === 'II*\0' || ascii(bytes, 0, 4) === 'MM\0*') return tiffSize(view);
    if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return webpSize(bytes, view);
  } catch {
    // A header cut short: not an image OCR can read.
  }
  return undefined;
}

/** The first start-of-frame marker's size (SOF0–SOF15, not DHT, JPG or DAC). */
function jpegSize(bytes: Uint8Array, view: DataView): ImageFormat | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = view.getUint16(offset + 5);
      const width = view.getUint16(offset + 7);
      return width > 0 && height > 0
        ? { mimeType: 'image/jpeg', label: 'JPEG image', width, height }
        : undefined;
    }
    offset += 2 + view.getUint16(offset + 2);
  }
  return undefined;
}

function tiffSize(view: DataView): ImageFormat | undefined {
  const little = view.getUint8(0) === 0x49;
  const ifd = view.getUint32(4, little);
  const count = view.getUint16(ifd, little);
  let width = 0;
  let height = 0;
  for (let index = 0; index < count; index += 1) {
    const at = ifd + 2 + index * 12;
    const tag = view.getUint16(at, little);
    const type = view.getUint16(at + 2, little);
    const value = type === 3 ? view.getUint16(at + 8, little) : view.getUint32(at + 8, little);
    if (tag === 256) width = value;
    if (tag === 257) height = value;
  }
  return width > 0 && height > 0 ? { mimeType: 'image/tiff', label: 'TIFF image', width, height } : undefined;
}

function webpSize(bytes: Uint8Array, view: DataView): ImageFormat | undefined {
  const chunk = ascii(bytes, 12, 16);
  let width = 0;
  let height = 0;
  if (chunk === 'VP8 ') {
    width = view.getUint16(26, true) & 0x3fff;
    height = view.getUint16(28, true) & 0x3fff;
  } else if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    width = (bits & 0x3fff) + 1;
    height = ((bits >> 14) & 0x3fff) + 1;
  } else if (chunk === 'VP8X') {
    width = (view.getUint32(24, true) & 0xffffff) + 1;
    height = (view.getUint32(27, true) & 0xffffff) + 1;
  }
  return width > 0 && height > 0 ? { mimeType: 'image/webp', label: 'WebP image', width, height } : undefined;
}
