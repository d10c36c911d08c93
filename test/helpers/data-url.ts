/** The bytes of a `data:<mime>;base64,…` URL, after checking its media type. */
export function dataUrlBytes(url: string, mime: string): Buffer {
  const prefix = `data:${mime};base64,`;
  if (!url.startsWith(prefix)) throw new Error(`not a ${mime} data URL: ${url.slice(0, 40)}`);
  return Buffer.from(url.slice(prefix.length), 'base64');
}

/** Width and height from a PNG's IHDR chunk (bytes 16–23), after checking the signature. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  if (!bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    throw new Error('not a PNG');
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
