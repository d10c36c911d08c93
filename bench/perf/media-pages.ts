import { crc32, deflateSync } from 'node:zlib';

/**
 * Picture-heavy pages for the media rows (media-rows.ts): an article with MEDIA_IMAGES photographs
 * (noisy, so they neither compress nor decode for free, as photographs do) and a web font. Every
 * image has its own address, so the browser's cache does not spare the next page its downloads.
 * Not linked from the site's index, so the crawl rows stay as they were.
 */
export const MEDIA_IMAGES = 8;
const WIDTH = 480;
const HEIGHT = 320;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A WIDTH×HEIGHT RGB PNG of deterministic noise over a gradient. */
export function noisyPng(seed: number): Buffer {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state >>> 24;
  };
  const rows: Buffer[] = [];
  for (let y = 0; y < HEIGHT; y += 1) {
    const row = Buffer.alloc(1 + WIDTH * 3);
    for (let x = 0; x < WIDTH; x += 1) {
      row[1 + x * 3] = (x + next()) & 0xff;
      row[2 + x * 3] = (y + next()) & 0xff;
      row[3 + x * 3] = next();
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function mediaPage(index: number, total: number, paragraphs: string): string {
  const images = Array.from(
    { length: MEDIA_IMAGES },
    (_, n) =>
      `<figure><img src="/media/photo-${index}-${n}.png" alt="Photograph ${n + 1} of page ${index}" width="${WIDTH}" height="${HEIGHT}"><figcaption>Frame ${n + 1}</figcaption></figure>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Photo story ${index}</title>
<link rel="icon" href="data:,">
<style>@font-face { font-family: Hive; src: url(/media/hive-${index}.woff2) format('woff2'); } body { font-family: Hive, serif; }</style>
</head>
<body>
<main><article>
<h1>Photo story ${index}</h1>
${paragraphs}
${images}
<p><a href="/media/page-${(index + 1) % total}.html">Next photo story</a></p>
</article></main>
</body>
</html>
`;
}
