import { DocumentProblem } from './document-problem';
import { FILE_KINDS, type FileKind } from './file-kinds';
import { looksLikeText } from './decode-text';
import { openZip } from './zip/open-zip';
import type { ZipLimits } from './zip/zip-limits';
import { attribute, walkXml } from './convert/walk-xml';
import { readImageFormat } from '../../scrape/derive';

/** What the bytes of an upload are, whatever it was called. */
export type Sniffed =
  | { kind: Exclude<FileKind, 'markdown' | 'csv' | 'tsv' | 'image'>; mimeType: string; label: string }
  | { kind: 'image'; mimeType: string; label: string; width: number; height: number }
  | { kind: 'other'; mimeType: string; label: string };

const known = (kind: Exclude<FileKind, 'markdown' | 'csv' | 'tsv' | 'image'>): Sniffed => ({
  kind,
  mimeType: FILE_KINDS[kind].mimeType,
  label: FILE_KINDS[kind].label,
});
const other = (mimeType: string, label: string): Sniffed => ({ kind: 'other', mimeType, label });

/** Signatures of common files that are not documents parse converts, to name them in the 415. */
const SIGNATURES: ReadonlyArray<{ bytes: number[]; mimeType: string; label: string }> = [
  {
    bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    mimeType: 'application/x-ole-storage',
    label: 'legacy Office document (.doc/.xls/.ppt)',
  },
  // Images whose header gives no size (cut short): OCR cannot read them.
  { bytes: [0x89, 0x50, 0x4e, 0x47], mimeType: 'image/png', label: 'PNG image' },
  { bytes: [0xff, 0xd8, 0xff], mimeType: 'image/jpeg', label: 'JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], mimeType: 'image/gif', label: 'GIF image' },
  { bytes: [0x1f, 0x8b], mimeType: 'application/gzip', label: 'gzip archive' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf], mimeType: 'application/x-7z-compressed', label: '7-Zip archive' },
  { bytes: [0x52, 0x61, 0x72, 0x21], mimeType: 'application/vnd.rar', label: 'RAR archive' },
  { bytes: [0x7b, 0x5c, 0x72, 0x74, 0x66], mimeType: 'application/rtf', label: 'RTF document' },
];

/**
 * Main content types of OOXML packages ([Content_Types].xml, ECMA-376 Part 2 §10.1.2.2), macro
 * and template variants included: their parts are laid out as the plain kind's.
 */
const OOXML_MAIN_TYPES: ReadonlyArray<[RegExp, FileKind & ('docx' | 'xlsx' | 'pptx')]> = [
  [/^application\/vnd\.(openxmlformats-officedocument\.wordprocessingml|ms-word)\./i, 'docx'],
  [/^application\/vnd\.(openxmlformats-officedocument\.spreadsheetml|ms-excel)\./i, 'xlsx'],
  [/^application\/vnd\.(openxmlformats-officedocument\.presentationml|ms-powerpoint)\./i, 'pptx'],
];
const OOXML_MAIN_PART =
  /\.(document|sheet|presentation|slideshow|template)\.main\+xml$|macroEnabled\.main\+xml$/i;

/** Sniffing reads two small entries at most; a bigger one is not a real document's. */
const SNIFF_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxEntryBytes: 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024,
  maxRatio: 200,
  ratioFloorBytes: 64 * 1024,
};

const startsWith = (bytes: Uint8Array, prefix: readonly number[], offset = 0) =>
  prefix.every((byte, index) => bytes[offset + index] === byte);

/**
 * The type of an upload from its content: `%PDF-`, a zip whose `[Content_Types].xml` names an
 * OOXML main part or whose `mimetype` entry names an ODF type, HTML by the WHATWG sniffing
 * patterns, text that decodes (UTF-8, UTF-16 with a byte order mark, or single-byte text without
 * control characters), a raster image OCR reads (by its header, which gives its size), or
 * something else, named where its signature is known. A zip that cannot
 * be read is a broken document (DocumentProblem).
 */
export function sniffContent(bytes: Uint8Array): Sniffed {
  // PDF readers accept the header anywhere in the first kilobyte.
  if (indexOfAscii(bytes.subarray(0, 1024), '%PDF-') >= 0) return known('pdf');
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return sniffZip(bytes);
  }
  const image = readImageFormat(bytes);
  if (image !== undefined) return { kind: 'image', ...image };
  const signature = SIGNATURES.find((candidate) => startsWith(bytes, candidate.bytes));
  if (signature !== undefined) return other(signature.mimeType, signature.label);
  const text = looksLikeText(bytes);
  if (text === undefined) return other('application/octet-stream', 'binary data of no supported type');
  return looksLikeHtml(text) ? known('html') : known('text');
}

function sniffZip(bytes: Uint8Array): Sniffed {
  const zip = openZip(bytes, SNIFF_ZIP_LIMITS);
  const mimetype = zip.read('mimetype');
  if (mimetype !== undefined) {
    const type = new TextDecoder().decode(mimetype).trim();
    if (type === FILE_KINDS.ods.mimeType) return known('ods');
    if (type.startsWith('application/vnd.oasis.opendocument.'))
      return other(type, `OpenDocument file (${type})`);
    if (type === 'application/epub+zip') return other(type, 'EPUB book');
  }
  const contentTypes = zip.read('[Content_Types].xml');
  if (contentTypes !== undefined) {
    let kind: 'docx' | 'xlsx' | 'pptx' | undefined;
    walkXml(contentTypes, '[Content_Types].xml', {
      open(name, attributes) {
        const type = attribute(attributes, 'ContentType') ?? '';
        if (name !== 'Override' || kind !== undefined || !OOXML_MAIN_PART.test(type)) return;
        kind = OOXML_MAIN_TYPES.find(([pattern]) => pattern.test(type))?.[1];
      },
    });
    if (kind !== undefined) return known(kind);
    return other('application/vnd.openxmlformats-package', 'Office Open XML package of no supported kind');
  }
  if (zip.entries.length === 0) throw new DocumentProblem('broken', 'the zip archive is empty');
  return other('application/zip', 'zip archive');
}

/** WHATWG MIME Sniffing §7.1, the HTML patterns: a tag or comment that opens an HTML document. */
const HTML_START =
  /^\s*(<!DOCTYPE\s+HTML|<HTML|<HEAD|<SCRIPT|<IFRAME|<H1|<DIV|<FONT|<TABLE|<A|<STYLE|<TITLE|<B|<BODY|<BR|<P)[\s>]|^\s*<!--/i;

function looksLikeHtml(text: string): boolean {
  return HTML_START.test(text.slice(0, 1024).replace(/^\uFEFF/, ''));
}

function indexOfAscii(bytes: Uint8Array, ascii: string): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(ascii, 0, 'latin1');
}
