/**
 * Decoded pixels (as pdf.js hands a page's image over) as a PNM file, which Leptonica reads
 * without a decoder: P5 (grey) for one channel, P6 (RGB) for three, alpha dropped from four;
 * 1-bit images (pdf.js's GRAYSCALE_1BPP, rows padded to a byte) are widened to grey.
 */
export function pixelsToPnm(
  width: number,
  height: number,
  data: Uint8Array | Uint8ClampedArray,
  /** pdf.js ImageKind: 1 = 1 bit per pixel, 2 = RGB, 3 = RGBA. */
  kind: number,
): Uint8Array {
  if (kind === 1) {
    const stride = (width + 7) >> 3;
    const grey = new Uint8Array(width * height);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const bit = ((data[y * stride + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1;
        grey[y * width + x] = bit === 1 ? 255 : 0;
      }
    }
    return withHeader('P5', width, height, grey);
  }
  if (kind === 3) {
    const rgb = new Uint8Array(width * height * 3);
    for (let pixel = 0; pixel < width * height; pixel += 1) {
      rgb[pixel * 3] = data[pixel * 4] ?? 0;
      rgb[pixel * 3 + 1] = data[pixel * 4 + 1] ?? 0;
      rgb[pixel * 3 + 2] = data[pixel * 4 + 2] ?? 0;
    }
    return withHeader('P6', width, height, rgb);
  }
  return withHeader(
    'P6',
    width,
    height,
    new Uint8Array(data.buffer, data.byteOffset, Math.min(data.length, width * height * 3)),
  );
}

function withHeader(magic: string, width: number, height: number, body: Uint8Array): Uint8Array {
  const header = new TextEncoder().encode(`${magic}\n${width} ${height}\n255\n`);
  const file = new Uint8Array(header.length + body.length);
  file.set(header);
  file.set(body, header.length);
  return file;
}
