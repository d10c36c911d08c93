import { posix } from 'node:path';
import { FILE_KINDS, type FileKind, UNSUPPORTED_TYPES } from './file-kinds';

/** What the client said the upload is, by its file name first and its part's Content-Type second. */
export type Declared =
  { kind: FileKind; by: string } | { kind: 'unsupported'; label: string; by: string } | { kind: 'none' };

/** Content types that say nothing about the file: a client that did not know sent one of these. */
const UNDECLARED_TYPES = new Set([
  '',
  'application/octet-stream',
  'binary/octet-stream',
  'application/unknown',
]);

const kinds = Object.entries(FILE_KINDS) as Array<[FileKind, (typeof FILE_KINDS)[FileKind]]>;

/**
 * The declared kind of an upload. A known extension decides (browsers and the SDKs name CSV files
 * `application/vnd.ms-excel`, so the name is the surer word); a file without one is taken at its
 * Content-Type; an unknown `text/*` type, JSON or XML is plain text.
 */
export function declaredFileKind(filename: string, contentType: string | undefined): Declared {
  const extension = posix.extname(filename.toLowerCase());
  if (extension !== '') {
    const kind = kinds.find(([, info]) => info.extensions.includes(extension))?.[0];
    if (kind !== undefined) return { kind, by: `its name (${extension})` };
    const unsupported = UNSUPPORTED_TYPES.find((type) => type.extensions.includes(extension));
    if (unsupported !== undefined)
      return { kind: 'unsupported', label: unsupported.label, by: `its name (${extension})` };
  }
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (UNDECLARED_TYPES.has(mediaType)) return { kind: 'none' };
  const by = `its Content-Type (${mediaType})`;
  const kind = kinds.find(
    ([, info]) => info.mimeType === mediaType || info.otherMimeTypes.includes(mediaType),
  )?.[0];
  if (kind !== undefined) return { kind, by };
  const unsupported = UNSUPPORTED_TYPES.find((type) => type.mimeTypes.includes(mediaType));
  if (unsupported !== undefined) return { kind: 'unsupported', label: unsupported.label, by };
  if (/^text\/|^application\/(json|xml)$|\+(json|xml)$/.test(mediaType)) return { kind: 'text', by };
  return { kind: 'unsupported', label: mediaType, by };
}
