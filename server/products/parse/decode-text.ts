/** Control characters that text files do not hold (all of C0 but tab, line feed, form feed, carriage return, escape). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const BINARY_CONTROL = /[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f]/;

/**
 * The text of an upload, or undefined when it is not text: UTF-16 with a byte order mark, UTF-8
 * (with or without one), or else a single-byte encoding (read as windows-1252) provided that no
 * control character a text file would not hold appears. The byte order mark is dropped.
 */
export function looksLikeText(bytes: Uint8Array): string | undefined {
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff)
    text = new TextDecoder('utf-16be').decode(bytes.subarray(2));
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      text = new TextDecoder('windows-1252').decode(bytes);
    }
  }
  return BINARY_CONTROL.test(text) ? undefined : text;
}

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i;

/**
 * The text of an HTML upload: by its byte order mark, as UTF-8 when it is valid UTF-8, else in
 * the charset its `<meta>` declares in the first kilobyte (Shift_JIS, GBK, …), else windows-1252.
 */
export function decodeHtml(bytes: Uint8Array): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return looksLikeText(bytes) ?? '';
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
    const charset = META_CHARSET.exec(head)?.[1];
    try {
      return new TextDecoder(charset ?? 'windows-1252').decode(bytes);
    } catch {
      return new TextDecoder('windows-1252').decode(bytes);
    }
  }
}
